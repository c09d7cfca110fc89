package dev.llmbench.deployments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison's statements on hand-made levels whose figures are known exactly. */
class DeploymentStatementsTests {

  static final ServiceLevels TTFT_100MS = ServiceLevels.none().withTtft(Duration.ofMillis(100)).atPercentile(50);

  /**
   * C requests of {@code tokens} tokens, all sent at 0 and answered with a first token after
   * {@code ttftMs} and one more every 10 ms: output throughput {@code C x tokens / window}.
   */
  static MeasuredLevel level(String deployment, int c, int tokens, long ttftMs, ServiceLevels slo) {
    long[] chunks = new long[tokens];
    for (int k = 0; k < tokens; k++) chunks[k] = ttftMs + 10L * k;
    return Levels.closed(c).slo(slo).requests(c, i -> Traces.at(0).content(chunks).usage(5, tokens).build())
        .deployment(deployment).build();
  }

  @Test
  void namesTheDeploymentWithTheMostGoodputAmongItsLevelsThatMeetTheSlo() {
    List<MeasuredLevel> levels = List.of(
        level("a", 1, 10, 50, TTFT_100MS), level("b", 1, 10, 20, TTFT_100MS),
        level("a", 4, 10, 90, TTFT_100MS), level("b", 4, 10, 150, TTFT_100MS));
    // a meets the SLO at C=4 (4 good requests in 0.18 s), b only at C=1 (1 in 0.11 s).
    assertThat(DeploymentComparison.findings(levels).get(0))
        .isEqualTo("under the SLO (TTFT ≤ 100.0 ms at p50), a gives the most goodput: 22.2 req/s (222 tok/s) at C=4; "
            + "b: 9.1 req/s (91 tok/s) at C=1 (41% of a)");
  }

  @Test
  void saysWhenADeploymentMeetsTheSloNowhereAndComparesThroughputWithoutAnSlo() {
    List<MeasuredLevel> levels = List.of(level("a", 2, 10, 50, TTFT_100MS), level("b", 2, 10, 500, TTFT_100MS));
    assertThat(DeploymentComparison.findings(levels).get(0)).endsWith("; b meets it at no level");
    List<MeasuredLevel> noSlo = List.of(level("a", 2, 10, 50, ServiceLevels.none()), level("b", 2, 10, 500, ServiceLevels.none()));
    assertThat(DeploymentComparison.findings(noSlo).get(0))
        .startsWith("no @Slo to judge goodput by; by output throughput, a is highest: 143 tok/s at C=2; b: ");
    assertThat(DeploymentComparison.findings(List.of(level("a", 2, 10, 50, TTFT_100MS)))).isEmpty();
  }

  @Test
  void theFrontierKeepsOnlyLevelsNoOtherBeatsOnBothThroughputAndLatency() {
    MeasuredLevel a1 = level("a", 1, 10, 50, ServiceLevels.none());   // 71 tok/s, E2E 140 ms
    MeasuredLevel b1 = level("b", 1, 10, 40, ServiceLevels.none());   // 77 tok/s, E2E 130 ms: beats a1 on both
    MeasuredLevel a8 = level("a", 8, 10, 300, ServiceLevels.none());  // 205 tok/s, E2E 390 ms: the most throughput
    MeasuredLevel b8 = level("b", 8, 10, 400, ServiceLevels.none());  // 163 tok/s, E2E 490 ms: a8 beats it on both
    List<SweepLevelResult> frontier = DeploymentComparison.frontier(List.of(a1, b1, a8, b8), 50);
    assertThat(frontier).containsExactly(b1, a8);
    assertThat(DeploymentComparison.findings(List.of(a1, b1, a8, b8)).get(1)).endsWith("a at C=8; b at C=1");
  }
}
