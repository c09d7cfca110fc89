package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.ServiceLevels;
import java.time.Duration;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import org.junit.jupiter.api.Test;

/** The chunks-versus-tokens warning names the figures it affects (#36). */
class LevelWarningsTests {

  @Test
  void chunksFarFromTheServersTokensSayTpotAndThePerUserRateAreAffected() {
    // 3 chunks for 9 tokens each: the server put several tokens in a chunk and did not say how many in the first.
    SweepLevelResult level = Levels.closed(1).requests(2, i -> Traces.at(i * 1000L).content(100, 200, 300).usage(1, 9).build())
        .maxTokens(9).build();
    assertThat(level.warnings()).contains("2 of 2 requests: the server's usage and the number of streamed chunks differ "
        + "by more than 10% (several tokens per chunk, e.g. speculative decoding or a reasoning parser); token counts use "
        + "the server's usage, and TPOT and output tok/s per user are affected (they count one token in the first chunk "
        + "unless the server reports usage per chunk)");
  }

  /** Ten requests of 8 tokens, every other one 3x slower: output throughput known only to about ±20%. */
  static Levels tenUneven() {
    return Levels.closed(1).requests(10, i -> Traces.at(i * 1000L).content(50, i % 2 == 0 ? 100 : 300).usage(5, 8).build());
  }

  @Test
  void aGateOnALevelTooSmallToHoldItSaysHowManyRequestsWouldHoldIt() {
    SweepLevelResult level = tenUneven().slo(ServiceLevels.none().withTtft(Duration.ofSeconds(1))).build();
    double h = level.outputThroughputCi().relativeHalfWidth();
    long needed = (long) Math.ceil(10 * (h / 0.05) * (h / 0.05));
    assertThat(level.warnings()).contains(String.format(java.util.Locale.ROOT, "output throughput is known only to ±%.1f%% "
        + "(95%% interval over 10 requests), wider than ±5.0%%: a gate on this level (its SLO, a capacity search, a "
        + "baseline, an assertion) may flip between runs; about %d requests would hold ±5.0%% (@Measurement(requests = %d), "
        + "or a level of automatic size, which goes on until ±5.0%%)", 100 * h, needed, needed));
    assertThat(h).as("the interval this level has").isBetween(0.10, 0.40);
    assertThat(needed).isGreaterThan(40);
  }

  @Test
  void noSuchWarningWithoutAGateOrOnTheEmbeddedEngine() {
    assertThat(tenUneven().build().warnings()).noneMatch(w -> w.startsWith("output throughput is known only to"));
    assertThat(tenUneven().embedded().slo(ServiceLevels.none().withTtft(Duration.ofSeconds(1))).build().warnings())
        .noneMatch(w -> w.startsWith("output throughput is known only to"));
  }
}
