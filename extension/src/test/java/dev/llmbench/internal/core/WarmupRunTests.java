package dev.llmbench.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.testkit.Traces;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** A closed loop's warm-up goes on until C requests were in flight together, and says what it did. */
class WarmupRunTests {

  static LevelPlan plan(int c, int warmupRequests) {
    return new LevelPlan("C=" + c, new LoadShape.ClosedLoop(c), new StopRule.Count(c),
        new WorkloadPlan(32, 0, true, null, PromptSource.builtIn(1)), warmupRequests, 8, 1);
  }

  /** Runners whose requests overlap from round {@code overlapFrom} on (1-based), and fail in round {@code failIn}. */
  static IntFunction<LoadRunner> runners(AtomicInteger round, int overlapFrom, int failIn) {
    return maxTokens -> {
      int r = round.incrementAndGet();
      return new LoadRunner((index, scheduled) -> {
        // In sequence, one after another, or all together; request 0 fails in round failIn.
        Traces t = (r >= overlapFrom ? Traces.at(r * 10_000L) : Traces.at(r * 10_000L + index * 100L)).content(10, 50);
        if (r == failIn && index == 0) t.failed(ErrorKind.HTTP_STATUS, 503, "overloaded");
        return CompletableFuture.completedFuture(t.build());
      }, () -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    };
  }

  @Test
  void oneRoundWhenCAreInFlightTogether() {
    AtomicInteger rounds = new AtomicInteger();
    WarmupReport w = WarmupRun.run(plan(4, 4), runners(rounds, 1, 0), Listeners.none()).orElseThrow().report();
    assertThat(w).isEqualTo(new WarmupReport(4, 0, java.util.Map.of(), 8, 4, 4, 1, w.time()));
    assertThat(w.reachedTarget()).isTrue();
  }

  @Test
  void goesOnUntilCAreInFlightTogether() {
    AtomicInteger rounds = new AtomicInteger();
    WarmupReport w = WarmupRun.run(plan(4, 4), runners(rounds, 2, 0), Listeners.none()).orElseThrow().report();
    assertThat(w.rounds()).isEqualTo(2);
    assertThat(w.requests()).isEqualTo(8);
    assertThat(w.peakInFlight()).isEqualTo(4);
    assertThat(w.reachedTarget()).isTrue();
  }

  @Test
  void givesUpAfterThreeRoundsAndSaysItNeverReachedC() {
    AtomicInteger rounds = new AtomicInteger();
    WarmupReport w = WarmupRun.run(plan(4, 4), runners(rounds, 99, 0), Listeners.none()).orElseThrow().report();
    assertThat(w.rounds()).isEqualTo(WarmupReport.MAX_ROUNDS);
    assertThat(w.peakInFlight()).isEqualTo(1);
    assertThat(w.reachedTarget()).isFalse();
  }

  @Test
  void stopsAtAFailureAndCountsIt() {
    AtomicInteger rounds = new AtomicInteger();
    WarmupReport w = WarmupRun.run(plan(4, 4), runners(rounds, 99, 1), Listeners.none()).orElseThrow().report();
    assertThat(w.rounds()).isEqualTo(1);
    assertThat(w.failed()).isEqualTo(1);
    assertThat(w.errorsByType()).containsEntry("HTTP 503", 1L);
  }

  @Test
  void noWarmupWhenThePlanHasNone() {
    assertThat(WarmupRun.run(plan(4, 0), runners(new AtomicInteger(), 1, 0), Listeners.none())).isEmpty();
  }
}
