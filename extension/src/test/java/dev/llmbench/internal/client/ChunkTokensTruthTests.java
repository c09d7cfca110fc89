package dev.llmbench.internal.client;

import static dev.llmbench.internal.client.ScriptedServer.chunk;
import static dev.llmbench.internal.client.ScriptedServer.headers;
import static dev.llmbench.internal.client.ScriptedServer.lastChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Checked from outside against a server whose every write time is known (#36): the time per decoded token when
 * the first chunk carries several tokens, and the window when the usage chunk and {@code [DONE]} come late.
 */
class ChunkTokensTruthTests {

  private static final Timeouts PATIENT = new Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(30),
      "llmbench.idle-timeout", Duration.ofSeconds(60), "llmbench.request-timeout");
  private static final byte[] BODY = "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
  private static final long TOKEN_NANOS = Duration.ofMillis(20).toNanos();

  private static NettyStreamTransport transport() {
    ConnectionSettings settings = ConnectionSettings.DEFAULT.withProxy(ConnectionSettings.ProxySetting.NONE)
        .withKeepAlive(Duration.ofMinutes(1));
    return new NettyStreamTransport(ConnectionOptions.of(URI.create("http://127.0.0.1/"), null, settings, k -> null,
        PATIENT.connect()), PATIENT, 2);
  }

  private static RequestTrace send(NettyStreamTransport transport, URI uri) {
    return transport.send(new StreamRequest(uri, BODY, Map.of(), true, TextCapture.FULL, System.nanoTime(), 1)).join();
  }

  private static void event(OutputStream out, String json) throws IOException {
    chunk(out, "data: " + json + "\n\n");
  }

  private static String content(String text, int completionSoFar) {
    return "{\"choices\":[{\"delta\":{\"content\":\"" + text + "\"}}]"
        + (completionSoFar < 0 ? "" : ",\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":" + completionSoFar + "}") + "}";
  }

  private static void pause(long nanos) {
    long until = System.nanoTime() + nanos;
    while (System.nanoTime() < until) LockSupport.parkNanos(Math.max(1, until - System.nanoTime()));
  }

  /**
   * 40 tokens: 4 in the first chunk (a prefill that bundles its output), then one chunk every 20 ms. With
   * per-chunk usage the time per decoded token is the server's; {@code first} and {@code last} get the server's
   * clock (the same JVM's nanoTime) at the first and the last token's write.
   */
  private static ScriptedServer fourTokenFirstChunk(boolean perChunkUsage, long[] firstAndLast) throws IOException {
    return new ScriptedServer((r, s, out, i) -> {
      s.setTcpNoDelay(true); // Nagle's algorithm would hold a chunk for the client's delayed ACK
      headers(out, 200, "text/event-stream", -1);
      event(out, "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}");
      event(out, content("abcd", perChunkUsage ? 4 : -1));
      firstAndLast[0] = System.nanoTime();
      for (int n = 5; n <= 40; n++) {
        pause(TOKEN_NANOS);
        event(out, content("x", perChunkUsage ? n : -1));
        firstAndLast[1] = System.nanoTime();
      }
      event(out, "{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}");
      event(out, "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":40}}");
      chunk(out, "data: [DONE]\n\n");
      lastChunk(out);
      return true;
    });
  }

  @Test
  void theTimePerDecodedTokenIsTheServersWhenTheFirstChunkCarriesFourTokens() throws Exception {
    long[] written = new long[2];
    try (ScriptedServer server = fourTokenFirstChunk(true, written); NettyStreamTransport transport = transport()) {
      send(transport, server.uri("/v1/chat/completions")); // a cold JVM's first parse (class loading) would delay a chunk's stamp
      RequestTrace t = send(transport, server.uri("/v1/chat/completions"));
      assertThat(t.succeeded()).as("%s", t).isTrue();
      assertThat(t.tokenChunks()).isEqualTo(37);
      assertThat(t.firstChunkTokens()).isEqualTo(4);
      double truth = (written[1] - written[0]) / 36.0;
      RequestMetrics m = RequestMetrics.of(t);
      assertThat(m.outputTokens()).isEqualTo(40);
      assertThat((double) m.tpot().orElseThrow().toNanos()).isCloseTo(truth, within(0.03 * truth));
      assertThat(m.outputTokensPerSecondPerUser().orElseThrow()).isCloseTo(1e9 / truth, within(0.03 * 1e9 / truth));
      assertThat(m.itls()).hasSize(36); // ITL stays per chunk
    }
  }

  @Test
  void withoutPerChunkUsageTheFirstChunkCountsOneTokenAsBefore() throws Exception {
    long[] written = new long[2];
    try (ScriptedServer server = fourTokenFirstChunk(false, written); NettyStreamTransport transport = transport()) {
      RequestTrace t = send(transport, server.uri("/v1/chat/completions"));
      assertThat(t.firstChunkTokens()).isEqualTo(-1);
      RequestMetrics m = RequestMetrics.of(t);
      // (E2E - TTFT) / 39: the 36 decoded tokens' time spread over 39, as the chunks-versus-tokens warning says.
      assertThat(m.tpot().orElseThrow()).isEqualTo(Duration.ofNanos(m.e2eLatency().minus(m.ttft().orElseThrow()).toNanos() / 39));
    }
  }

  @Test
  void theWindowRunsToTheEndOfTheLastStreamWhenItsUsageChunkComesLate() throws Exception {
    long tail = Duration.ofMillis(800).toNanos();
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
          s.setTcpNoDelay(true);
          headers(out, 200, "text/event-stream", -1);
          for (int n = 1; n <= 10; n++) {
            pause(Duration.ofMillis(10).toNanos());
            event(out, content("x", -1));
          }
          event(out, "{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}");
          pause(tail);
          event(out, "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":10}}");
          chunk(out, "data: [DONE]\n\n");
          lastChunk(out);
          return true;
        });
        NettyStreamTransport transport = transport()) {
      // C=1: two requests, one after the other; the truth is the time from before the first send to after the last end.
      List<RequestMetrics> level = new ArrayList<>();
      long before = System.nanoTime();
      for (int i = 0; i < 2; i++) level.add(RequestMetrics.of(send(transport, server.uri("/v1/chat/completions"))));
      long after = System.nanoTime();
      assertThat(level).allSatisfy(m -> assertThat(m.succeeded()).isTrue());
      double truth = after - before;
      Duration window = LevelStatistics.window(level);
      assertThat((double) window.toNanos()).isCloseTo(truth, within(0.03 * truth));
      double throughput = level.stream().mapToInt(RequestMetrics::outputTokens).sum() * 1e9 / window.toNanos();
      double truthThroughput = 20 * 1e9 / truth;
      assertThat(throughput).isCloseTo(truthThroughput, within(0.03 * truthThroughput));
      // E2E still ends at the last choices event, before the late usage chunk.
      assertThat(level.get(1).e2eLatency()).isLessThan(Duration.ofNanos(tail));
    }
  }
}
