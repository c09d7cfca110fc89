package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** When an open loop's client fell behind its schedule: p99 of send minus due at 10 ms or more, uncapped loops only. */
class BehindScheduleTests {

  /** 100 requests due every 10 ms; the last {@code late} of them sent {@code lateMs} after they were due. */
  static SweepLevelResult level(Levels levels, int late, long lateMs) {
    return levels.requests(100, i -> {
      long due = 10L * i;
      long sent = due + (i >= 100 - late ? lateMs : 0);
      return Traces.at(sent).scheduledAt(due).content(20, 30).usage(5, 2).build();
    }).build();
  }

  @Test
  void aClientThatKeptItsScheduleHasNoFinding() {
    assertThat(BehindSchedule.of(level(Levels.open(100), 1, 40))).as("one late send is not p99").isEmpty();
  }

  @Test
  void aClientWhoseP99SendIsLateFellBehind() {
    Optional<Finding> f = BehindSchedule.of(level(Levels.open(100), 5, 25));
    assertThat(f).isPresent();
    assertThat(f.get().kind()).isEqualTo(FindingKind.BEHIND_SCHEDULE);
    assertThat(f.get().kind().isAnomaly()).isTrue();
    assertThat(f.get().summary()).contains("the client fell behind rate=100.0/s's schedule").contains("max 25.0 ms");
    assertThat(f.get().evidence()).anyMatch(e -> e.name().equals("schedule lag p99") && e.value() == 25.0);
  }

  @Test
  void cappedAndClosedLoopsAreNotJudged() {
    assertThat(BehindSchedule.of(level(Levels.of(new LoadShape.OpenLoop(Rate.requestsPerSecond(100), 1, OptionalInt.of(4)),
        "capped"), 5, 25))).as("a capped loop's late sends are its wait for a slot").isEmpty();
    assertThat(BehindSchedule.of(level(Levels.closed(4), 5, 25))).as("a closed loop has no schedule").isEmpty();
  }
}
