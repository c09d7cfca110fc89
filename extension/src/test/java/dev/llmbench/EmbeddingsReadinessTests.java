package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.workload.Embeddings;
import java.io.IOException;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Readiness that knows the workload: a class that sends embeddings is ready when a 1-input embeddings request comes
 * back with a vector, so a server that serves only embeddings (vLLM with an embedding model, the pooling runner; TEI)
 * is ready for it although it refuses chat, as vLLM refuses it by version: an error object in a 200 (until about
 * 0.10), 501 (the handler raising NotImplementedError), 404 (the generation routes no longer registered).
 *
 * <p>Every fixture polls once a minute, so a wait that ends within a minute ended at its first probe.
 */
class EmbeddingsReadinessTests {

  private static final Duration PROBE_INTERVAL = Duration.ofMinutes(1);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MODELS = "{\"object\":\"list\",\"data\":[{\"id\":\"bge\",\"object\":\"model\"}]}";

  /** The refusal of a class on the embedded engine with no embeddings route, in the words of its level {@code C=1}. */
  private static final String NO_EMBEDDINGS_ROUTE = "Configuration error: sweep on method [Embeds#embeds], C=1: @Embeddings "
      + "sends to POST /v1/embeddings, but http://127.0.0.1:{n}/v1/embeddings answered HTTP 404: Not Found, so no load was "
      + "sent: serve embeddings there (llama-server --embeddings --pooling mean; vLLM with an embedding model, --runner "
      + "pooling), or remove @Embeddings";

  /** What the readiness says of a server that does not generate, whichever way it refuses. */
  private static final String DOES_NOT_GENERATE = ": the server does not generate, which waiting does not change (vLLM "
      + "serving an embedding model, the pooling runner, answers so); measure its embeddings with @Embeddings sweeps, or "
      + "set llmbench.base-url to a server that generates";

  /**
   * vLLM's answers to {@code POST /v1/chat/completions} from a pooling runner, by version, each with what the
   * readiness of a chat test says of it.
   */
  static Stream<Arguments> chatRefusals() {
    return Stream.of(
        Arguments.of("vLLM until about 0.10: the error object sent with status 200", 200,
            "{\"object\":\"error\",\"message\":\"The model does not support Chat Completions API\",\"type\":"
                + "\"BadRequestError\",\"param\":null,\"code\":400}",
            "a 1-token completion to /v1/chat/completions answered STREAM_ERROR: the server sent an error: The model does "
                + "not support Chat Completions API" + DOES_NOT_GENERATE),
        Arguments.of("vLLM raising NotImplementedError: 501", 501, "{\"error\":{\"message\":\"The model does not support "
            + "Chat Completions API\",\"type\":\"NotImplementedError\",\"param\":null,\"code\":501}}",
            "a 1-token completion to /v1/chat/completions answered HTTP 501: The model does not support Chat Completions API"
                + DOES_NOT_GENERATE),
        Arguments.of("vLLM registering no generation route: 404", 404, "{\"detail\":\"Not Found\"}",
            "a 1-token completion to /v1/chat/completions for model 'bge' answered HTTP 404: Not Found; check llmbench.model "
                + "(the server lists [bge]) and llmbench.api (chat or completions); a server that only embeds has no such "
                + "route (vLLM's pooling runner, TEI): measure it with @Embeddings sweeps"));
  }

  /**
   * A pooling runner: health, the model list and {@code /v1/embeddings} (one vector per input), and chat refused
   * with {@code chatStatus} and {@code chatBody}. Records every path it was asked.
   */
  private static MockWebServer poolingRunner(int chatStatus, String chatBody, Queue<String> asked) throws IOException {
    MockWebServer server = new MockWebServer();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        asked.add(path);
        return switch (path) {
          case "/health" -> json(200, "{}");
          case "/v1/models" -> json(200, MODELS);
          case "/v1/embeddings" -> json(200, embeddings(request));
          case "/v1/chat/completions", "/v1/completions" -> json(chatStatus, chatBody);
          default -> json(404, "{\"detail\":\"Not Found\"}");
        };
      }
    });
    server.start();
    return server;
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse.Builder().code(status).setHeader("Content-Type", "application/json").body(body).build();
  }

  private static String embeddings(RecordedRequest request) {
    try {
      JsonNode input = JSON.readTree(request.getBody().utf8()).path("input");
      ObjectNode answer = JSON.createObjectNode().put("object", "list").put("model", "bge");
      ArrayNode data = answer.putArray("data");
      for (int i = 0; i < input.size(); i++) {
        data.addObject().put("object", "embedding").put("index", i).putArray("embedding").add(0.25).add(-0.5);
      }
      int tokens = 0;
      for (JsonNode text : input) tokens += text.asText().split("\\s+").length;
      answer.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
      return answer.toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("chatRefusals")
  void anEmbeddingsClassIsReadyOnAServerThatRefusesChat(String version, int status, String body, String refusal)
      throws IOException {
    Queue<String> asked = new ConcurrentLinkedQueue<>();
    try (MockWebServer server = poolingRunner(status, body, asked)) {
      long start = System.nanoTime();
      assertThat(BenchKit.run(EmbeddingsOnlyTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.network.samples", "0")).passed("C=1");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval").isLessThan(PROBE_INTERVAL);
      // Its readiness sent one input where it used to send a chat completion, and no level sent chat either.
      assertThat(asked).contains("/v1/embeddings").doesNotContain("/v1/chat/completions", "/v1/completions");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("chatRefusals")
  void aClassThatMixesProbesBothAndFailsOnlyItsChatTestNamingTheRefusal(String version, int status, String body,
      String refusal) throws IOException {
    Queue<String> asked = new ConcurrentLinkedQueue<>();
    try (MockWebServer server = poolingRunner(status, body, asked)) {
      long start = System.nanoTime();
      BenchKit.Run run = BenchKit.run(MixedTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.network.samples", "0");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval").isLessThan(PROBE_INTERVAL);
      assertThat(run).level("C=1").succeeded();
      assertThat(run).test("chats(LlmClient)").failedWith(EndpointNotReadyException.class).hasMessageMatching(
          Messages.pattern("LLM endpoint " + server.url("/") + " cannot become ready for POST /v1/chat/completions: "
              + refusal + " (gave up after {duration} instead of waiting out the limit 3m, llmbench.ready.timeout, "
              + "since this does not clear by waiting)"));
      assertThat(asked).contains("/v1/embeddings", "/v1/chat/completions");
      assertThat(asked.stream().filter("/v1/chat/completions"::equals).count()).as("chat requests: the probe alone")
          .isEqualTo(1);
    }
  }

  @Test
  void aClassThatMixesOnAChatOnlyServerRunsItsChatAndRefusesItsEmbeddingsBeforeLoadNamingTheFix() {
    BenchKit.Run run = BenchKit.run(MixedTestCases.class, "llmbench.embedded.embeddings", "false");
    assertThat(run).test("chats(LlmClient)").succeeded();
    assertThat(run).level("C=1").failedWith(ExtensionConfigurationException.class)
        .hasMessageMatching(Messages.pattern(NO_EMBEDDINGS_ROUTE));
  }

  @Test
  void aLaterEmbeddingsClassProbesTheRouteItsEndpointWasNotYetAskedFor() {
    // Two classes on one embedded engine: whichever runs first readies it, the other then probes its own route.
    BenchKit.Run run = BenchKit.run(TwoClassesTestCases.class, "llmbench.embedded.embeddings", "false");
    assertThat(run).test("chats(LlmClient)").succeeded();
    assertThat(run).level("C=1").failedWith(ExtensionConfigurationException.class)
        .hasMessageMatching(Messages.pattern(NO_EMBEDDINGS_ROUTE));
    assertThat(BenchKit.run(TwoClassesTestCases.class)).passed("C=1", "chats(LlmClient)");
  }

  static class EmbeddingsOnlyTestCases {
    @ConcurrencySweep(1)
    @Embeddings(batchSize = 2)
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    void embeds(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.inputThroughput().perSecond()).isPositive();
    }
  }

  /** One embeddings level: what a class of each test below runs beside, or instead of, a chat test. */
  abstract static class Embeds {
    @ConcurrencySweep(1)
    @Embeddings
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void embeds(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  @LlmEndpoint(readyPollInterval = "1m", readyTimeout = "3m")
  static class MixedTestCases extends Embeds {
    @Test
    void chats(LlmClient llm) {
      assertThat(llm.chat("Hi").content()).isNotNull();
    }
  }

  @LlmEndpoint
  static class TwoClassesTestCases {
    @org.junit.jupiter.api.Nested
    class ChatOnly {
      @Test
      void chats(LlmClient llm) {
        assertThat(llm.chat("Hi").content()).isNotNull();
      }
    }

    @org.junit.jupiter.api.Nested
    class EmbeddingsOnly extends Embeds {}
  }
}
