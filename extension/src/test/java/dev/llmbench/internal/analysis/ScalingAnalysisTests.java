package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/** The readings an engineer would make of a sweep table, on levels with known figures. */
class ScalingAnalysisTests {

  /** Requests each producing {@code tokens} tokens; request i starts at startMs(i) and takes latencyMs(i). */
  static Levels requests(Levels level, int n, int tokens, IntToLongFunction startMs, IntToLongFunction latencyMs) {
    return level.requests(n, i -> Traces.at(startMs.applyAsLong(i)).content(1, latencyMs.applyAsLong(i))
        .usage(1, tokens).build()).maxTokens(tokens);
  }

  /** Closed loop at C: four rounds of C requests, each {@code latencyMs}, so throughput = C x tokens / latency. */
  static SweepLevelResult closed(int c, long latencyMs) {
    return closedOf(c, 100, latencyMs);
  }

  static SweepLevelResult closedOf(int c, int tokens, long latencyMs) {
    return requests(Levels.closed(c), 4 * c, tokens, i -> (i / c) * latencyMs, i -> latencyMs).build();
  }

  @Test
  void readsSublinearScalingAsBoundByBandwidthOrInterconnect() {
    // 100 tokens per request; C=1 at 1 s gives 100 tok/s; C=32 at 2.5 s gives 1280 tok/s: 12.8x for 32x.
    List<String> findings = ScalingAnalysis.findings(List.of(closed(1, 1000), closed(8, 1600), closed(32, 2500)));
    assertThat(findings.get(0)).startsWith("32x the concurrency (C=1 to C=32) gave 12.8x the throughput (100.0 to 1280.0 tok/s)")
        .contains("scaling efficiency 40%").contains("memory bandwidth or the interconnect");
    // C=8 at 1.6 s: 500 tok/s against 8 x 100, 62.5%.
    assertThat(findings).anyMatch(f -> f.startsWith("scaling efficiency first drops below 80% at C=8 (63%)"));
  }

  @Test
  void flagsThroughputThatFallsWhenLoadRises() {
    // C=2 is slower in total than C=1: 2 x 100 tokens per 2.5 s = 80 tok/s against 100.
    List<String> findings = ScalingAnalysis.findings(List.of(closed(1, 1000), closed(2, 2500)));
    assertThat(findings).anyMatch(f -> f.startsWith("throughput fell from 100.0 tok/s at C=1 to 80.0 tok/s at C=2"));
  }

  @Test
  void linearScalingReadsAsBatchingWell() {
    List<String> findings = ScalingAnalysis.findings(List.of(closed(1, 1000), closed(4, 1000)));
    assertThat(findings.get(0)).contains("efficiency 100%").contains("batches well");
  }

  @Test
  void openLoopFindsTheRateWhereRequestsStartToQueue() {
    SweepLevelResult steady = requests(Levels.open(2), 12, 10, i -> 500L * i, i -> 300).build();
    SweepLevelResult queueing = requests(Levels.open(8), 12, 10, i -> 125L * i, i -> 300 + 200L * i).build(); // latency grows with every arrival
    List<String> findings = ScalingAnalysis.findings(List.of(steady, queueing));
    assertThat(findings.get(0)).isEqualTo("the server kept up with offered rates up to 2 req/s (no queue built up)");
    assertThat(findings.get(1)).startsWith("at 8 req/s the latency of the last third of requests is").contains("past saturation");
  }

  @Test
  void crossedWorkloadsAreReadOnePerGroup() {
    SweepLevelResult short1 = closedOf(1, 32, 500);
    SweepLevelResult short4 = closedOf(4, 32, 500);
    SweepLevelResult long1 = closedOf(1, 256, 4000);
    SweepLevelResult long4 = closedOf(4, 256, 8000);
    List<String> findings = ScalingAnalysis.findings(List.of(short1, short4, long1, long4));
    assertThat(findings).anyMatch(f -> f.startsWith("[max_tokens=32] 4x the concurrency") && f.contains("efficiency 100%"));
    assertThat(findings).anyMatch(f -> f.startsWith("[max_tokens=256] 4x the concurrency") && f.contains("efficiency 50%"));
  }
}
