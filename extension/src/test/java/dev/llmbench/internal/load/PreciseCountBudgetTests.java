package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.result.StopReason;
import dev.llmbench.testkit.Traces;
import java.time.Duration;
import java.util.Optional;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A level of automatic size sends its count, then goes on until its output throughput is known to the precision,
 * or a cap: driven here one request at a time (C=1), each request's latency chosen, as the run loop drives it.
 */
class PreciseCountBudgetTests {

  static final StopRule.Precision FIVE_PERCENT = new StopRule.Precision(0.05, 60, Duration.ofMinutes(1), false);

  /** A request of 8 tokens sent at {@code startMs} that takes {@code ms}. */
  static RequestTrace request(long startMs, long ms) {
    return Traces.at(startMs).content(ms / 2, ms).usage(5, 8).build();
  }

  /** Sends one request at a time with latency {@code latencyMs(i)}, until the budget says no; returns how many. */
  static int drive(Budget budget, IntUnaryOperator latencyMs, Duration elapsedAfterCount) {
    long t = 0;
    int issued = 0;
    while (issued < 1000 && budget.mayIssue(issued, issued < 10 ? Duration.ZERO : elapsedAfterCount)) {
      long ms = latencyMs.applyAsInt(issued);
      budget.completed(request(t, ms));
      t += ms;
      issued++;
    }
    return issued;
  }

  @Test
  void aLevelAlreadyPreciseAtItsCountStopsThereAsAPlainCountWould() {
    Budget budget = Budget.of(new StopRule.Count(10, Optional.of(FIVE_PERCENT)), 1);
    assertThat(drive(budget, i -> 100, Duration.ZERO)).isEqualTo(10);
    assertThat(budget.stopReason()).isEqualTo(StopReason.REQUEST_COUNT);
  }

  @Test
  void aNoisyLevelGoesOnPastItsCountUntilItsIntervalIsWithinTheTarget() {
    // Every fifth request is 1.3x slower: about ±7% over 10 requests, within ±5% by about 20, well before the cap of 60.
    Budget budget = Budget.of(new StopRule.Count(10, Optional.of(FIVE_PERCENT.covering(10))), 1);
    int sent = drive(budget, i -> i % 5 == 0 ? 130 : 100, Duration.ZERO);
    assertThat(sent).isBetween(11, 59);
    assertThat(budget.stopReason()).isEqualTo(StopReason.CONVERGED);
  }

  @Test
  void aLevelThatNeverGetsThereStopsAtTheRequestCapOrTheTimeCapButNeverBeforeItsCount() {
    IntUnaryOperator wild = i -> i % 2 == 0 ? 50 : 2000; // half the requests 40x slower: wider than ±5% at 60
    Budget capped = Budget.of(new StopRule.Count(10, Optional.of(new StopRule.Precision(0.01, 30, Duration.ofMinutes(1), false))), 1);
    assertThat(drive(capped, wild, Duration.ZERO)).isEqualTo(30);
    assertThat(capped.stopReason()).isEqualTo(StopReason.REQUEST_CAP);

    Budget timed = Budget.of(new StopRule.Count(10, Optional.of(FIVE_PERCENT)), 1);
    assertThat(timed.mayIssue(9, Duration.ofHours(1))).as("the count is never cut by the time cap").isTrue();
    assertThat(drive(timed, wild, Duration.ofMinutes(1))).isEqualTo(10);
    assertThat(timed.stopReason()).isEqualTo(StopReason.TIME_CAP);
  }

  @Test
  void onTheEmbeddedEngineTheDefaultsPrecisionIsDroppedAndAnExplicitOneKept() {
    StopRule.Precision byDefault = new StopRule.Precision(0.05, 1000, Duration.ofMinutes(1), true);
    assertThat(new StopRule.Count(10, Optional.of(byDefault)).on(true)).isEqualTo(new StopRule.Count(10));
    assertThat(new StopRule.Count(10, Optional.of(byDefault)).on(false)).isEqualTo(new StopRule.Count(10, Optional.of(byDefault)));
    assertThat(new StopRule.Count(10, Optional.of(FIVE_PERCENT)).on(true)).isEqualTo(new StopRule.Count(10, Optional.of(FIVE_PERCENT)));
  }

  @Test
  void aLevelWhoseRequestsMostlyFailStopsAtItsCount() {
    Budget budget = Budget.of(new StopRule.Count(10, Optional.of(FIVE_PERCENT)), 1);
    for (int i = 0; i < 10; i++) {
      assertThat(budget.mayIssue(i, Duration.ZERO)).isTrue();
      budget.completed(i < 4 ? request(i * 1000L, i % 2 == 0 ? 50 : 2000)
          : Traces.at(i * 1000L).failed(dev.llmbench.client.ErrorKind.HTTP_STATUS, 503, "busy").build());
    }
    assertThat(budget.mayIssue(10, Duration.ZERO)).isFalse();
    assertThat(budget.stopReason()).isEqualTo(StopReason.REQUEST_COUNT);
  }
}
