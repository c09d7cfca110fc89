package dev.llmbench.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.TokenSource;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.RequestTrace;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every metric on hand-built traces (times in ms from a start at 0), with exact expected values. */
class RequestMetricsTests {

  private static final long MS = 1_000_000;

  /** A chunk: arrival in ms, and whether it carried content, reasoning, or neither. */
  record C(long ms, boolean content, boolean reasoning) {}

  static RequestTrace trace(long endMs, List<C> chunks, Usage usage, RequestFailure error) {
    RequestTrace.Builder b = RequestTrace.builder().times(0, 0, endMs * MS).startedAt(Instant.EPOCH).status(200)
        .streamed(true).finishReason("stop").usage(usage).serverTimings(Map.of()).promptTokensEstimate(10).failure(error);
    for (C c : chunks) {
      if (c.content() || c.reasoning()) {
        b.token(c.ms() * MS, c.content(), c.reasoning());
      } else {
        b.emptyChoice();
      }
    }
    return b.build();
  }

  static C content(long ms, String text) {
    return new C(ms, true, false);
  }

  static C reasoning(long ms, String text) {
    return new C(ms, false, true);
  }

  static C roleOnly(long ms) {
    return new C(ms, false, false);
  }

  @Test
  void roleOnlyFirstChunkDoesNotCountForTtft() {
    RequestMetrics m = RequestMetrics.of(trace(130, List.of(roleOnly(5), content(50, "a"), content(90, "b"),
        content(130, "c")), new Usage(12, 3, null), null));
    assertThat(m.ttft()).contains(Duration.ofMillis(50));
    assertThat(m.ttfo()).contains(Duration.ofMillis(50));
    assertThat(m.e2eLatency()).isEqualTo(Duration.ofMillis(130));
    assertThat(m.tpot()).contains(Duration.ofMillis(40)); // (130 - 50) / (3 - 1)
    assertThat(m.itls()).containsExactly(Duration.ofMillis(40), Duration.ofMillis(40));
    assertThat(m.outputTokens()).isEqualTo(3);
    assertThat(m.tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
    assertThat(m.promptTokens()).isEqualTo(12);
    assertThat(m.outputTokensPerSecondPerUser()).hasValueSatisfying(v -> assertThat(v).isEqualTo(25.0));
  }

  @Test
  void reasoningComesBeforeContent() {
    RequestMetrics m = RequestMetrics.of(trace(100, List.of(reasoning(20, "hm"), reasoning(40, "ok"), content(70, "A"),
        content(100, ".")), new Usage(5, 4, 2), null));
    assertThat(m.ttft()).contains(Duration.ofMillis(20));
    assertThat(m.ttfo()).contains(Duration.ofMillis(70));
    assertThat(m.reasoningTokens()).isEqualTo(2);
    assertThat(m.outputTokens()).isEqualTo(4);
  }

  @Test
  void reasoningOnlyStreamHasTtftButNoTtfo() {
    RequestMetrics m = RequestMetrics.of(trace(60, List.of(reasoning(20, "a"), reasoning(40, "b"), reasoning(60, "c")),
        null, null));
    assertThat(m.ttft()).contains(Duration.ofMillis(20));
    assertThat(m.ttfo()).isEmpty();
    assertThat(m.reasoningTokens()).isEqualTo(3); // counted from chunks when usage is missing
    assertThat(m.tokenSource()).isEqualTo(TokenSource.CHUNK_COUNT_ESTIMATE);
  }

  @Test
  void singleTokenOutputHasNoTpot() {
    RequestMetrics m = RequestMetrics.of(trace(30, List.of(content(30, "x")), new Usage(3, 1, null), null));
    assertThat(m.tpot()).isEmpty();
    assertThat(m.itls()).isEmpty();
    assertThat(m.ttft()).contains(Duration.ofMillis(30));
  }

  @Test
  void usageMissingFallsBackToChunkCountAsAnEstimate() {
    RequestMetrics m = RequestMetrics.of(trace(90, List.of(content(30, "a"), content(60, "b"), content(90, "c")), null, null));
    assertThat(m.outputTokens()).isEqualTo(3);
    assertThat(m.tokenSource()).isEqualTo(TokenSource.CHUNK_COUNT_ESTIMATE);
    assertThat(m.promptTokens()).isEqualTo(10); // the client's estimate
    assertThat(m.chunkTokenMismatch()).isFalse();
  }

  @Test
  void usageDisagreeingWithChunksByMoreThanTenPercentIsFlagged() {
    RequestMetrics m = RequestMetrics.of(trace(90, List.of(content(30, "abc"), content(60, "def"), content(90, "ghi")),
        new Usage(3, 9, null), null));
    assertThat(m.outputTokens()).isEqualTo(9);
    assertThat(m.chunkTokenMismatch()).isTrue();
    assertThat(m.tpot()).contains(Duration.ofNanos(60 * MS / 8)); // tokens, not chunks
  }

  @Test
  void aFirstChunkOfSeveralTokensDividesTheDecodeTimeByTheTokensAfterIt() {
    // Per-chunk usage said the first chunk carried 4 of the 9 tokens: 60 ms of decoding made the other 5.
    RequestTrace t = RequestTrace.builder().times(0, 0, 90 * MS).status(200).streamed(true).finishReason("stop")
        .usage(new Usage(3, 9, null)).token(30 * MS, true, false).firstChunkTokens(4).token(60 * MS, true, false)
        .token(90 * MS, true, false).build();
    RequestMetrics m = RequestMetrics.of(t);
    assertThat(m.tpot()).contains(Duration.ofMillis(12)); // (90 - 30) / (9 - 4), not / (9 - 1)
    assertThat(m.outputTokensPerSecondPerUser()).hasValueSatisfying(v -> assertThat(v).isCloseTo(1000 / 12.0,
        org.assertj.core.data.Offset.offset(1e-9)));
    assertThat(m.itls()).containsExactly(Duration.ofMillis(30), Duration.ofMillis(30)); // ITL stays per chunk
  }

  @Test
  void aFirstChunkCarryingEveryTokenLeavesNoTpot() {
    RequestTrace t = RequestTrace.builder().times(0, 0, 40 * MS).status(200).streamed(true).finishReason("stop")
        .usage(new Usage(3, 4, null)).token(30 * MS, true, false).firstChunkTokens(4).emptyChoice().build();
    assertThat(RequestMetrics.of(t).tpot()).isEmpty();
  }

  @Test
  void theStreamEndsNoSoonerThanItsLastChoicesEvent() {
    RequestTrace late = RequestTrace.builder().times(0, 0, 90 * MS).streamEnd(890 * MS).token(30 * MS, true, false).build();
    RequestTrace unrecorded = RequestTrace.builder().times(0, 0, 90 * MS).token(30 * MS, true, false).build();
    assertThat(late.streamEndNanos()).isEqualTo(890 * MS);
    assertThat(RequestMetrics.of(late).e2eLatency()).isEqualTo(Duration.ofMillis(90)); // E2E still ends at the last choices event
    assertThat(unrecorded.streamEndNanos()).isEqualTo(90 * MS);
  }

  @Test
  void failedRequestEntersNoDistribution() {
    RequestMetrics m = RequestMetrics.of(trace(50, List.of(content(30, "a")), null,
        new RequestFailure(ErrorKind.CUT_STREAM, 200, "cut")));
    assertThat(m.succeeded()).isFalse();
    assertThat(m.ttft()).isEmpty();
    assertThat(m.outputTokens()).isZero();
    assertThat(m.e2eLatency()).isEqualTo(Duration.ofMillis(50));
  }
}
