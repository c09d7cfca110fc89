package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * Tool calls threaded back, a whole run against the embedded engine (which calls the tool a request's {@code tools}
 * offers): each calling turn offers its tool, the server's call goes into the history with its live id, name and
 * arguments, and the next turn answers it with a {@code tool} message carrying the trace's result; a sub-agent does
 * the same in its own history. A recording relay in front of the engine keeps every body both ways.
 */
class AgentToolCallsTests {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One chat request and the server's answer, as they crossed the relay. */
  record Exchange(String session, JsonNode request, String answer) {}

  /** A relay on 127.0.0.1 that forwards everything to {@code upstream} and keeps the chat exchanges. */
  static final class RecordingRelay implements AutoCloseable {
    private final HttpServer http;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final ConcurrentLinkedQueue<Exchange> chats = new ConcurrentLinkedQueue<>();

    RecordingRelay(URI upstream) throws IOException {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
      http.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
      http.createContext("/", ex -> forward(ex, upstream));
      http.start();
    }

    String url() {
      return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    private void forward(HttpExchange ex, URI upstream) throws IOException {
      try {
        byte[] body = ex.getRequestBody().readAllBytes();
        HttpRequest.Builder r = HttpRequest.newBuilder(upstream.resolve(ex.getRequestURI().toString()));
        r = ex.getRequestMethod().equals("POST")
            ? r.POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json") : r.GET();
        HttpResponse<byte[]> answer = client.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (ex.getRequestURI().getPath().equals("/v1/chat/completions")) {
          chats.add(new Exchange(ex.getRequestHeaders().getFirst("X-Session-ID"), JSON.readTree(body),
              new String(answer.body(), StandardCharsets.UTF_8)));
        }
        answer.headers().firstValue("Content-Type").ifPresent(t -> ex.getResponseHeaders().add("Content-Type", t));
        ex.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(answer.body());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        ex.sendResponseHeaders(502, -1);
      } finally {
        ex.close();
      }
    }

    @Override
    public void close() {
      http.stop(0);
    }
  }

  /** The assistant's message the streamed {@code answer} makes: its text and its one tool call, pieces joined. */
  private static ObjectNode assistant(String answer) throws IOException {
    String id = null;
    String name = null;
    StringBuilder arguments = new StringBuilder();
    StringBuilder content = new StringBuilder();
    for (String line : answer.split("\n")) {
      if (!line.startsWith("data: ") || line.equals("data: [DONE]")) continue;
      JsonNode delta = JSON.readTree(line.substring(6)).path("choices").path(0).path("delta");
      content.append(delta.path("content").asText(""));
      JsonNode call = delta.path("tool_calls").path(0);
      if (call.has("id")) id = call.get("id").asText();
      if (call.path("function").has("name")) name = call.get("function").get("name").asText();
      arguments.append(call.path("function").path("arguments").asText(""));
    }
    assertThat(id).as("the engine's call id in %s", answer).startsWith("call_chatcmpl-");
    ObjectNode m = JSON.createObjectNode().put("role", "assistant").put("content", content.toString());
    ObjectNode c = m.putArray("tool_calls").addObject().put("id", id).put("type", "function");
    c.putObject("function").put("name", name).put("arguments", arguments.toString());
    return m;
  }

  private static ObjectNode message(String role, String content) {
    return JSON.createObjectNode().put("role", role).put("content", content);
  }

  private static ObjectNode tool(ObjectNode assistant, String content) {
    return message("tool", content).put("tool_call_id", assistant.path("tool_calls").path(0).path("id").asText());
  }

  private static JsonNode tools(String name) throws IOException {
    return JSON.readTree("[{\"type\":\"function\",\"function\":{\"name\":\"" + name
        + "\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}}]");
  }

  @Test
  void eachToolCallIsAnsweredByItsLiveIdWithTheTracesResultAndTheHistoryKeepsTheCall() throws Exception {
    EmbeddedLlmServer engine = EmbeddedLlmServer.start(PerformanceProfile.INSTANT, 0, Duration.ZERO);
    try (engine; RecordingRelay relay = new RecordingRelay(engine.baseUrl())) {
      assertThat(BenchKit.run(ToolCases.class, "llmbench.base-url", relay.url())).passed("C=1");
      Map<String, List<Exchange>> bySession = new LinkedHashMap<>();
      for (Exchange e : relay.chats) if (e.session() != null) bySession.computeIfAbsent(e.session(), k -> new ArrayList<>()).add(e);
      assertThat(bySession).hasSize(2);
      String a1 = bySession.keySet().iterator().next();
      assertThat(bySession.keySet()).containsExactly(a1, a1 + "/1.0");

      List<Exchange> parent = bySession.get(a1);
      assertThat(parent).hasSize(3);
      ArrayNode history = JSON.createArrayNode().add(message("system", "You are a coding agent."))
          .add(message("user", "Fix the failing test."));
      assertThat(parent.get(0).request().get("messages")).isEqualTo(history);
      assertThat(parent.get(0).request().get("tools")).isEqualTo(tools("run_tests"));
      ObjectNode runTests = assistant(parent.get(0).answer());
      assertThat(runTests.at("/tool_calls/0/function/name").asText()).isEqualTo("run_tests");
      history.add(runTests).add(tool(runTests, "2 failed: test_parse, test_round"));
      assertThat(parent.get(1).request().get("messages")).isEqualTo(history);
      assertThat(parent.get(1).request().get("tools")).isEqualTo(tools("read_file"));
      ObjectNode readFile = assistant(parent.get(1).answer());
      assertThat(readFile.at("/tool_calls/0/id").asText()).isNotEqualTo(runTests.at("/tool_calls/0/id").asText());
      history.add(readFile).add(tool(readFile, "def parse(s): return int(s)"));
      assertThat(parent.get(2).request().get("messages")).isEqualTo(history);
      assertThat(parent.get(2).request().has("tools")).as("the last turn calls nothing").isFalse();

      // The sub-agent: the parent's system prompt, its own task, its own call answered in its own history.
      List<Exchange> fix = bySession.get(a1 + "/1.0");
      assertThat(fix).hasSize(2);
      ArrayNode own = JSON.createArrayNode().add(message("system", "You are a coding agent."))
          .add(message("user", "Patch parse()."));
      assertThat(fix.get(0).request().get("messages")).isEqualTo(own);
      assertThat(fix.get(0).request().get("tools")).isEqualTo(tools("edit_file"));
      ObjectNode edit = assistant(fix.get(0).answer());
      own.add(edit).add(tool(edit, "patched"));
      assertThat(fix.get(1).request().get("messages")).isEqualTo(own);
    }
  }

  @LlmEndpoint
  static class ToolCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 8, prefixCache = Workload.PrefixCache.REUSE)
    @Warmup(requests = 0)
    @AgentTrace(value = AgentTraceReaderTests.DIR + "agent-tools.jsonl", toolCalls = true, toolTimeScale = 0,
        affinityHeader = "X-Session-ID")
    void sweep(SweepLevelResult r) {
      assertThat(r.requests()).hasSize(5);
      assertThat(r.errorRate()).isZero();
    }
  }

  @Test
  void withoutToolCallsNoToolsAreSentAndAResultGoesAsUserText() throws Exception {
    EmbeddedLlmServer engine = EmbeddedLlmServer.start(PerformanceProfile.INSTANT, 0, Duration.ZERO);
    try (engine; RecordingRelay relay = new RecordingRelay(engine.baseUrl())) {
      assertThat(BenchKit.run(PlainCases.class, "llmbench.base-url", relay.url())).passed("C=1");
      List<Exchange> sent = relay.chats.stream().filter(e -> e.session() != null).toList();
      assertThat(sent).hasSize(5).allSatisfy(e -> assertThat(e.request().has("tools")).isFalse());
      assertThat(sent).allSatisfy(e -> e.request().get("messages").forEach(m -> {
        assertThat(m.has("tool_calls")).isFalse();
        assertThat(m.path("role").asText()).isNotEqualTo("tool");
      }));
    }
  }

  @LlmEndpoint
  static class PlainCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 8, prefixCache = Workload.PrefixCache.REUSE)
    @Warmup(requests = 0)
    @AgentTrace(value = AgentTraceReaderTests.DIR + "agent-tools.jsonl", toolTimeScale = 0, affinityHeader = "X-Session-ID")
    void sweep(SweepLevelResult r) {
      assertThat(r.requests()).hasSize(5);
      assertThat(r.errorRate()).isZero();
    }
  }
}
