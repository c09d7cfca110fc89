package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.RequestResult;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Against a server with a cold path the first time it runs a batch of a new size (the stub stalls every
 * running request then): the default warm-up runs the level's batch before measuring, so the stall never
 * reaches the measurement; without a warm-up it lands on the first round.
 */
class WarmupTests {

  static final int TOKENS = 20;
  static final Duration TOKEN = Duration.ofMillis(5);

  /**
   * The warmed sweep checks when each stall began, whatever its length; the cold one needs the stall to stand
   * out of its level (3 of its 100 ms requests, 2% of its window): 300 ms does, on a loaded machine too.
   */
  static final Duration STALL = Duration.ofMillis(300);

  static final List<SweepLevelResult> LEVELS = new java.util.ArrayList<>();

  @Test
  void theDefaultWarmupRunsTheLevelsBatchSoTheColdPathMissesTheMeasurement() {
    LEVELS.clear();
    try (StubEngine stub = StubEngine.builder().tokenTime(TOKEN).coldStall(STALL).start()) {
      assertThat(BenchKit.run(WarmedTestCases.class, "llmbench.base-url", stub.url())).passed("C=2", "C=4");
      assertThat(stub.stalls()).as("batch sizes 1 to 4, each cold once").isEqualTo(4);
      // No stall began while a level was measured: each came in the readiness probe or a warm-up.
      for (SweepLevelResult level : LEVELS) {
        Instant first = level.requests().stream().map(RequestResult::startedAt).min(Instant::compareTo).orElseThrow();
        Instant last = level.requests().stream().map(q -> q.startedAt().plus(q.e2eLatency())).max(Instant::compareTo)
            .orElseThrow();
        assertThat(stub.stallTimes()).as("stalls against %s, measured %s to %s", level.label(), first, last)
            .noneMatch(t -> t.isAfter(first) && t.isBefore(last));
      }
    }
  }

  @Test
  void withoutAWarmupTheColdPathLandsOnTheFirstRound() {
    try (StubEngine stub = StubEngine.builder().tokenTime(TOKEN).coldStall(STALL).start()) {
      assertThat(BenchKit.run(ColdTestCases.class, "llmbench.base-url", stub.url())).passed("C=4");
    }
  }

  static class WarmedTestCases {
    @ConcurrencySweep({2, 4})
    @Workload(maxTokens = TOKENS)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      WarmupReport w = r.warmup().orElseThrow();
      assertThat(w.requests()).isEqualTo(r.concurrency());
      assertThat(w.maxTokens()).isEqualTo(TOKENS);
      assertThat(w.target()).isEqualTo(r.concurrency());
      assertThat(w.peakInFlight()).isEqualTo(r.concurrency());
      assertThat(w.rounds()).isEqualTo(1);
      assertThat(w.failed()).isZero();
      LEVELS.add(r);
      assertThat(r.warnings()).noneMatch(x -> x.contains("warm-up"));
    }
  }

  static class ColdTestCases {
    @ConcurrencySweep(4)
    @Workload(maxTokens = TOKENS)
    @Warmup(requests = 0)
    @Measurement(rounds = 6) // a second half well clear of the first rounds, even when a worker starts late
    void sweep(SweepLevelResult r) {
      assertThat(r.warmup()).isEmpty();
      // Batch sizes 2 to 4 are new when the first round ramps up (1 was seen by the readiness probe): their
      // stall lands in the measurement, on the first round (and on the second, when a worker starts late).
      List<RequestResult> requests = r.requests();
      assertThat(requests.subList(0, 4)).anySatisfy(q -> assertThat(q.e2eLatency()).isGreaterThanOrEqualTo(STALL));
      // And the level says so.
      assertThat(r.findings()).filteredOn(f -> f.kind() == FindingKind.COLD_START).singleElement()
          .satisfies(f -> assertThat(f.causes().get(0).cause()).isEqualTo("no warm-up"));
    }
  }
}
