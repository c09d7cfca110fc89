package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ApiStyle;
import dev.llmbench.EndpointInfo;
import dev.llmbench.ServiceLevels;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Usage;
import dev.llmbench.internal.client.Chunk;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.Workload;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/** The readings an engineer would make of a sweep table, on levels with known figures. */
class ScalingAnalysisTests {

  private static final long MS = 1_000_000;

  /** A level whose requests each produce {@code tokens} tokens; request i starts at startMs(i) and takes latencyMs(i). */
  static SweepLevelResult level(int c, double rate, int n, int tokens, IntToLongFunction startMs, IntToLongFunction latencyMs) {
    List<RequestMetrics> requests = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long s = startMs.applyAsLong(i) * MS;
      long e = s + latencyMs.applyAsLong(i) * MS;
      requests.add(RequestMetrics.of(new RequestTrace(s, s, Instant.EPOCH, e, List.of(new Chunk(s + MS, "a", ""),
          new Chunk(e, "b", "")), "ab", "", "length", new Usage(1, tokens, null), Map.of(), 1, true, null)));
    }
    String label = rate > 0 ? "rate=" + rate + "/s" : "C=" + c;
    LevelPlan plan = new LevelPlan(label, c, rate, 1, n, null, Duration.ofSeconds(1), tokens, 0, true, null,
        Workload.builtIn(1), 0, null, 1);
    EndpointInfo info = new EndpointInfo("http://127.0.0.1:1/", "m", ApiStyle.CHAT, Optional.empty(), Optional.empty(), Duration.ZERO, List.of());
    return new SweepLevelResult(plan, info, requests, ServiceLevels.none(), List.of(50.0), Budget.StopReason.REQUEST_COUNT,
        null, List.of());
  }

  /** Closed loop at C: four rounds of C requests, each {@code latencyMs}, so throughput = C x tokens / latency. */
  static SweepLevelResult closed(int c, long latencyMs) {
    return level(c, 0, 4 * c, 100, i -> (i / c) * latencyMs, i -> latencyMs);
  }

  static SweepLevelResult closedOf(int c, int tokens, long latencyMs) {
    return level(c, 0, 4 * c, tokens, i -> (i / c) * latencyMs, i -> latencyMs);
  }

  @Test
  void readsSublinearScalingAsBoundByBandwidthOrInterconnect() {
    // 100 tokens per request; C=1 at 1 s gives 100 tok/s; C=32 at 2.5 s gives 1280 tok/s: 12.8x for 32x.
    List<String> findings = ScalingAnalysis.findings(List.of(closed(1, 1000), closed(8, 1600), closed(32, 2500)));
    assertThat(findings.get(0)).startsWith("32x the concurrency (C=1 to C=32) gave 12.8x the throughput (100.0 to 1280.0 tok/s)")
        .contains("scaling efficiency 40%").contains("memory bandwidth or the interconnect");
    // C=8 at 1.6 s: 500 tok/s against 8 x 100, 62.5%.
    assertThat(findings).contains("scaling efficiency first drops below 80% at C=8 (63%)");
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
    SweepLevelResult steady = level(0, 2, 12, 10, i -> 500L * i, i -> 300);
    SweepLevelResult queueing = level(0, 8, 12, 10, i -> 125L * i, i -> 300 + 200L * i); // latency grows with every arrival
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
