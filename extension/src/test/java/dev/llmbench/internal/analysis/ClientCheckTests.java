package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the client, not the server, may have set a level's figures; levels with 10 ms between tokens. */
class ClientCheckTests {

  static SweepLevelResult level(ClientLoad load) {
    return Levels.closed(8).requests(8, i -> Traces.at(0).content(50, 60, 70, 80).usage(5, 4).build()).clientLoad(load).build();
  }

  static ClientLoad load(double client, double jvm, double machine, long lagP90Micros) {
    return new ClientLoad(2, Duration.ofMillis(100), client, jvm, machine, Duration.ofMillis(0), Duration.ofNanos(lagP90Micros * 1000),
        Duration.ofMillis(50), 1000);
  }

  @Test
  void aClientWithCpuAndTimeToSpareIsNotSuspected() {
    assertThat(ClientCheck.reasons(level(load(0.05, 0.3, 0.5, 500)))).isEmpty();
  }

  @Test
  void eachReasonIsNamed() {
    assertThat(ClientCheck.reasons(level(load(0.05, 0.95, 0.99, 500)))).singleElement().asString()
        .startsWith("this JVM used 95.0% of its 2 cores");
    // A busy machine counts when it made the client late: 2.2 ms (p90), but not 0.5 ms.
    assertThat(ClientCheck.reasons(level(load(0.05, 0.3, 0.97, 2200)))).singleElement().asString()
        .startsWith("the machine's 2 cores were 97.0% busy (this JVM 30.0% of them) and its threads woke 2.2 ms late (p90)");
    assertThat(ClientCheck.reasons(level(load(0.05, 0.3, 0.97, 500)))).isEmpty();
    assertThat(ClientCheck.reasons(level(load(0.6, 0.7, 0.8, 500)))).singleElement().asString()
        .startsWith("the client's own threads used 60.0% of the 2 cores");
    // 10 ms between tokens: a 2.5 ms lag is a quarter of it, 2 ms is not.
    assertThat(ClientCheck.reasons(level(load(0.05, 0.3, 0.5, 2500)))).singleElement().asString()
        .startsWith("its threads woke 2.5 ms late (p90) against a median ITL of 10.0 ms");
    assertThat(ClientCheck.reasons(level(load(0.05, 0.3, 0.5, 2000)))).isEmpty();
  }

  /** Tokens 1 ms apart, as a fast server streams them. */
  static SweepLevelResult fastLevel(ClientLoad load) {
    return Levels.closed(8).requests(8, i -> Traces.at(0).content(50, 51, 52, 53).usage(5, 4).build()).clientLoad(load).build();
  }

  @Test
  void aLagBelowTheOldTwoMillisecondFloorCountsAgainstGapsItBlurs() {
    // A shared runner: the machine 99% busy, this JVM half of it, threads 0.4 ms late against 1 ms between
    // tokens. The 2 ms floor used to hide this; now the gaps themselves are the measure.
    assertThat(ClientCheck.reasons(fastLevel(load(0.05, 0.5, 0.99, 400)))).singleElement().asString()
        .startsWith("its threads woke 400 µs late (p90) against a median ITL of 1.0 ms")
        .endsWith("; other processes on the machine used 49.0% of its 2 cores (the machine 99.0% busy by /proc/stat, "
            + "this JVM 50.0%), which may have made it late");
    // The same lag on a machine this JVM had to itself names no other process.
    assertThat(ClientCheck.reasons(fastLevel(load(0.05, 0.5, 0.6, 400)))).singleElement().asString()
        .doesNotContain("other processes");
    // Below the clock's own grain (0.25 ms) no gap is blurred by it, however short.
    assertThat(ClientCheck.reasons(fastLevel(load(0.05, 0.5, 0.99, 200)))).isEmpty();
  }

  @Test
  void aBusySharedMachineThatDidNotBlurTheGapsIsAWarningNotAFinding() {
    // 1 ms late against 10 ms gaps: not client-bound, but the figures carry a shared runner's noise.
    SweepLevelResult shared = level(load(0.05, 0.3, 0.95, 1000));
    assertThat(ClientCheck.reasons(shared)).isEmpty();
    assertThat(ClientCheck.sharedMachine(shared)).hasValueSatisfying(w -> assertThat(w).startsWith(
        "other processes on the machine used 65.0% of its 2 cores (the machine 95.0% busy by /proc/stat, this JVM 30.0%) "
            + "while C=8 ran, and the client's threads woke 1.0 ms late (p90)"));
    assertThat(shared.warnings()).anyMatch(w -> w.startsWith("other processes on the machine used 65.0%"));
    // A quiet machine, or a level the check already suspects, gets no such warning.
    assertThat(ClientCheck.sharedMachine(level(load(0.05, 0.3, 0.4, 1000)))).isEmpty();
    assertThat(ClientCheck.sharedMachine(level(load(0.05, 0.3, 0.95, 100)))).isEmpty();
    assertThat(ClientCheck.sharedMachine(fastLevel(load(0.05, 0.5, 0.99, 400)))).isEmpty();
  }

  @Test
  void aLevelWithoutClientFiguresIsNotJudged() {
    assertThat(ClientCheck.reasons(Levels.closed(1).requests(2, i -> Traces.at(i * 100L).content(5, 10).build()).build())).isEmpty();
  }
}
