package dev.llmbench.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The feature's two findings, each on turns where it must speak and on turns where it must not. */
class SessionFeatureTests {

  private static TurnFigures turn(int turn, double prompt, double cachedShare, double... ttftMs) {
    double[] sorted = ttftMs.clone();
    java.util.Arrays.sort(sorted);
    return new TurnFigures(turn, ttftMs.length, 0, sorted, sorted, sorted, sorted, sorted, 2, prompt,
        Double.isNaN(cachedShare) ? OptionalDouble.empty() : OptionalDouble.of(cachedShare * prompt),
        Double.isNaN(cachedShare) ? OptionalDouble.empty() : OptionalDouble.of(cachedShare));
  }

  @Test
  void laterTurnsAreSlowerOnlyWhenTheirSpreadsDoNotOverlap() {
    List<TurnFigures> slower = List.of(turn(1, 100, Double.NaN, 10, 11, 11, 12, 12, 12, 13, 13, 14, 14),
        turn(2, 300, Double.NaN, 30, 31, 31, 32, 33, 33, 34, 35, 35, 36));
    assertThat(SessionFeature.findings("C=4", slower)).singleElement().asString()
        .startsWith("C=4: later turns are slower beyond noise: turn 2's median TTFT is 33.0 ms against turn 1's 12.0 ms (x2.8");
    // The same medians apart, but with spreads that overlap: noise, not a finding.
    List<TurnFigures> noisy = List.of(turn(1, 100, Double.NaN, 5, 6, 8, 10, 12, 12, 25, 30, 35, 40),
        turn(2, 300, Double.NaN, 9, 12, 20, 28, 33, 33, 34, 35, 50, 60));
    assertThat(SessionFeature.findings("C=4", noisy)).isEmpty();
    // Fewer than ten requests a turn cannot tell.
    assertThat(SessionFeature.findings("C=4", List.of(turn(1, 100, Double.NaN, 10, 11, 12, 13, 14, 15, 16, 17, 18),
        turn(2, 300, Double.NaN, 30, 31, 33, 35, 36, 37, 38, 39, 40)))).isEmpty();
  }

  @Test
  void theCacheStopsHelpingWhenItServesLessThanHalfTheHistoryATurnResent() {
    double[] same = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    List<TurnFigures> stops = List.of(turn(1, 100, 0, same), turn(2, 200, 0.45, same), turn(3, 300, 0.1, same));
    assertThat(SessionFeature.findings("C=8", stops)).singleElement().asString()
        .startsWith("C=8: the prefix cache stops helping at turn 3: it served 10.0% of the prompt, though the history the "
            + "turn resent is 66.7% of it");
    List<TurnFigures> never = List.of(turn(1, 100, 0, same), turn(2, 200, 0.05, same));
    assertThat(SessionFeature.findings("C=8", never)).singleElement().asString().contains("does not help at turn 2");
    List<TurnFigures> helps = List.of(turn(1, 100, 0, same), turn(2, 200, 0.45, same), turn(3, 300, 0.6, same));
    assertThat(SessionFeature.findings("C=8", helps)).isEmpty();
  }

  @Test
  void theCachedTokensComeFromUsageOrElseFromLlamaServersTimings() {
    RequestTrace usage = Traces.at(0).content(5, 6).usage(100, 2).cachedTokens(64).build().withTurn(1);
    RequestTrace llama = Traces.at(0).content(5, 6).usage(100, 2).timings(Map.of("cache_n", 80.0)).build().withTurn(1);
    RequestTrace silent = Traces.at(0).content(5, 6).usage(100, 2).build().withTurn(0);
    MeasuredLevel level = Levels.closed(1).request(silent).request(usage).request(llama).build();
    List<TurnFigures> turns = TurnFigures.of(level.requests());
    assertThat(turns).extracting(TurnFigures::turn).containsExactly(1, 2);
    assertThat(turns.get(0).cachedShare()).isEmpty();
    assertThat(turns.get(1).cachedTokens().getAsDouble()).isEqualTo(72.0);
    assertThat(turns.get(1).cachedShare().getAsDouble()).isEqualTo(0.72);
  }
}
