package dev.llmbench.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.SteadyState;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The steady part of a closed loop: all C in flight; before it the ramp, after it the drain. */
class SteadyStateTests {

  /** n requests at C of 1 s and 100 tokens each, sent in rounds as a closed loop sends them. */
  static SweepLevelResult rounds(int c, int n) {
    return Levels.closed(c).requests(n, i -> Traces.at((i / c) * 1000L).content(1, 1000).usage(1, 100).build())
        .maxTokens(100).build();
  }

  @Test
  void wholeRoundsAreSteadyFromFirstToLast() {
    SweepLevelResult level = rounds(4, 12);
    SteadyState s = level.steadyState().orElseThrow();
    assertThat(s).isEqualTo(new SteadyState(4, Duration.ZERO, Duration.ofSeconds(3), Duration.ZERO, s.outputThroughput()));
    assertThat(s.outputThroughput().perSecond()).isEqualTo(400.0);
    assertThat(level.outputThroughput().perSecond()).isEqualTo(400.0);
    assertThat(level.warnings()).noneMatch(w -> w.contains("whole round") || w.contains("ramp-up and drain"));
  }

  @Test
  void aPartialLastRoundIsDrainAndTheLevelSaysSo() {
    // 10 at C=4: two rounds of 4, then 2 alone for a third second. The window reads 1000 tokens / 3 s.
    SweepLevelResult level = rounds(4, 10);
    SteadyState s = level.steadyState().orElseThrow();
    assertThat(s.ramp()).isZero();
    assertThat(s.steady()).isEqualTo(Duration.ofSeconds(2));
    assertThat(s.drain()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.rampAndDrainShare()).isCloseTo(1 / 3.0, offset(1e-9));
    assertThat(s.outputThroughput().perSecond()).isEqualTo(400.0);
    assertThat(level.outputThroughput().perSecond()).isCloseTo(333.3, offset(0.1));
    assertThat(level.warnings()).anyMatch(w -> w.startsWith("10 requests at C=4 are 2 whole round(s) and one of 2"))
        .anyMatch(w -> w.startsWith("ramp-up and drain took 33.3% of the window") && w.contains("400.0 tok/s against 333.3"));
  }

  @Test
  void aStaggeredRampIsCountedAsRamp() {
    // C=2, the second worker starts 500 ms late: 2 in flight from 500 ms; the first worker's third request
    // ends at 3000 ms and is not replaced, the second's last ends at 3500 ms.
    SweepLevelResult level = Levels.closed(2)
        .requests(3, i -> Traces.at(i * 1000L).content(1, 1000).usage(1, 100).build())
        .requests(3, i -> Traces.at(500 + i * 1000L).content(1, 1000).usage(1, 100).build()).maxTokens(100).build();
    SteadyState s = level.steadyState().orElseThrow();
    assertThat(s.ramp()).isEqualTo(Duration.ofMillis(500));
    assertThat(s.steady()).isEqualTo(Duration.ofMillis(2500));
    assertThat(s.drain()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void aLevelThatNeverHadCInFlightHasNoSteadyPart() {
    SweepLevelResult level = Levels.closed(4).requests(6, i -> Traces.at(i * 600L).content(1, 1000).usage(1, 100).build())
        .build();
    assertThat(level.peakConcurrency()).isEqualTo(2);
    assertThat(level.steadyState()).isEmpty();
  }

  @Test
  void anOpenLoopHasNoSteadyPart() {
    assertThat(Levels.open(2).requests(4, i -> Traces.at(i * 500L).content(1, 300).usage(1, 10).build()).build()
        .steadyState()).isEmpty();
  }
}
