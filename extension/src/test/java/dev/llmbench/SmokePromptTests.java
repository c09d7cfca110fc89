package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.client.LlmHttpException;
import dev.llmbench.client.LlmReply;
import dev.llmbench.testkit.BenchKit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** Smoke prompts through the injected client: replies, failures that quote them, and servers that fail. */
class SmokePromptTests {

  @Test
  void smokeAnswersAndTheirFailuresQuotePromptAndReply() {
    BenchKit.Run run = BenchKit.run(EmbeddedSmokeTestCases.class);
    assertThat(run).test("paris(LlmClient)").succeeded();
    assertThat(run).test("prime(LlmClient)").succeeded();
    assertThat(run).test("wrongAnswer(LlmClient)").failedWith(AssertionError.class).hasMessage(
        "expected the reply to \"What is the capital of France?\" to contain \"Berlin\" but it was:\n"
            + "  \"The capital of France is Paris.\"");
  }

  @Test
  void aServerErrorThrowsWithStatusAndBodyExcerpt() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new ReadyButFailingServer());
      server.start();
      assertThat(BenchKit.run(FailingServerTestCases.class, "llmbench.base-url", server.url("/").toString()))
          .test("smoke(LlmClient)").failedWith(LlmHttpException.class)
          .hasMessage("HTTP 500 from " + server.url("/v1/chat/completions") + ": CUDA error: out of memory");
    }
  }

  @Test
  void progressLinesNameTheUrlTheTimeWaitedAndTheLastStatus() {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true));
    try {
      BenchKit.run(SlowProgressTestCases.class);
    } finally {
      System.setOut(original);
    }
    java.util.List<String> lines = captured.toString().lines().filter(l -> l.startsWith("[llmbench] waiting for")).toList();
    assertThat(lines).hasSizeGreaterThanOrEqualTo(3).allMatch(l ->
        l.matches("\\[llmbench] waiting for http://127\\.0\\.0\\.1:\\d+/: [\\d.]+ (ms|s) elapsed of the \\S+ limit "
            + "\\(llmbench\\.ready\\.timeout\\), last: GET /health answered 503 .*Loading model.*"));
  }

  /** Healthy and able to answer a 1-token probe, then fails every real request with a 500. */
  static final class ReadyButFailingServer extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getUrl().encodedPath();
      if (path.equals("/health")) return new MockResponse.Builder().body("{\"status\":\"ok\"}").build();
      if (path.equals("/v1/models")) return new MockResponse.Builder().body("{\"data\":[{\"id\":\"m\"}]}").build();
      if (request.getBody() != null && request.getBody().utf8().contains("\"max_tokens\":1,")) {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json")
            .body("{\"choices\":[{\"message\":{\"content\":\"Hi\"},\"finish_reason\":\"length\"}]}").build();
      }
      return new MockResponse.Builder().code(500).body("{\"error\":{\"message\":\"CUDA error: out of memory\"}}").build();
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class EmbeddedSmokeTestCases {
    @Test
    void paris(LlmClient llm) {
      LlmBenchAssertions.assertThat(llm.chat("What is the capital of France?")).contentContains("Paris").finishedWith("stop")
          .hasNoReasoning();
    }

    @Test
    void prime(LlmClient llm) {
      LlmReply reply = llm.chat("Write a Python function that checks whether a number is prime.");
      LlmBenchAssertions.assertThat(reply).codeBlock("python").contains("def is_prime");
      assertThat(reply.request().ttft()).isPresent();
    }

    @Test
    void wrongAnswer(LlmClient llm) {
      LlmBenchAssertions.assertThat(llm.chat("What is the capital of France?")).contentContains("Berlin");
    }
  }

  @LlmEndpoint(readyTimeout = "10s", readyPollInterval = "100ms")
  static class FailingServerTestCases {
    @Test
    void smoke(LlmClient llm) {
      llm.chat("What is the capital of France?");
    }
  }

  @LlmEndpoint(embeddedProfile = "instant", embeddedStartupDelay = "1500ms", readyPollInterval = "100ms",
      readyProgressInterval = "300ms")
  static class SlowProgressTestCases {
    @Test
    void ready(LlmClient llm) {}
  }
}
