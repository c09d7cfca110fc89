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
    return load(client, 0.01, jvm, machine, lagP90Micros);
  }

  static ClientLoad load(double client, double clientWait, double jvm, double machine, long lagP90Micros) {
    return new ClientLoad(2, Duration.ofMillis(100), client, clientWait, Duration.ofNanos(20_000), jvm, machine, Duration.ofMillis(0), Duration.ofNanos(lagP90Micros * 1000),
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

  @Test
  void aClientKeptWaitingForACoreBesideOtherProcessesIsSuspected() {
    // Two CPU hogs beside a client that reads as fast as it may: it got 18% of the cores and waited for them
    // another 45%; this JVM 60%, the machine full. The CPU it got says nothing, the probe (a sleeper, woken
    // first) woke on time; the wait tells.
    assertThat(ClientCheck.reasons(level(load(0.18, 0.45, 0.6, 1.0, 100)))).singleElement().asString()
        .isEqualTo("the client's own threads used 18.0% of the 2 cores and waited for one another 45.0% of the time "
            + "reading 1000 events/s; other processes on the machine used 40.0% of its 2 cores (the machine 100.0% "
            + "busy by /proc/stat, this JVM 60.0%)");
    // Late by a good part of the gaps as well: the other processes are named once, with the lateness.
    assertThat(ClientCheck.reasons(level(load(0.18, 0.45, 0.6, 1.0, 2500)))).containsExactly(
        "the client's own threads used 18.0% of the 2 cores and waited for one another 45.0% of the time reading 1000 events/s",
        "its threads woke 2.5 ms late (p90) against a median ITL of 10.0 ms, so every time it took may be off by about as much; "
            + "other processes on the machine used 40.0% of its 2 cores (the machine 100.0% busy by /proc/stat, this JVM 60.0%), "
            + "which may have made it late");
    // A light client on the same machine waits too, each time it wakes, but asks little of the cores.
    assertThat(ClientCheck.reasons(level(load(0.03, 0.35, 0.15, 1.0, 100)))).isEmpty();
    // Off Linux the wait is not known: the CPU alone decides, as before.
    assertThat(ClientCheck.reasons(level(load(0.18, Double.NaN, 0.6, 1.0, 100)))).isEmpty();
  }

  @Test
  void aClientWhoseThreadsWaitedForACoreEachTimeIsBlurredThoughTheProbeWokeOnTime() {
    // 10 ms between tokens; the probe woke 100 µs late (p90), the event loops waited 3 ms for a core each time.
    ClientLoad waited = new ClientLoad(2, Duration.ofMillis(100), 0.05, 0.2, Duration.ofMillis(3), 0.3, 1.0,
        Duration.ZERO, Duration.ofNanos(100_000), Duration.ofMillis(5), 1000);
    assertThat(ClientCheck.reasons(level(waited))).singleElement().asString()
        .isEqualTo("its threads waited 3.0 ms for a core each time they were ready (mean) against a median ITL of "
            + "10.0 ms, so every time it took may be off by about as much; other processes on the machine used 70.0% "
            + "of its 2 cores (the machine 100.0% busy by /proc/stat, this JVM 30.0%), which may have made it late");
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

  @Test
  void aLevelWhoseEveryRequestWasRefusedIsNeverClientBound() {
    // A server that died: 16 connections refused in a few milliseconds. Over so short a window the client's
    // threads' share (here 30% run, 40.7% waited, and a JVM 95% busy) is noise: there was nothing to read.
    ClientLoad busy = new ClientLoad(2, Duration.ofMillis(3), 0.3, 0.407, Duration.ofNanos(20_000), 0.95, 0.99,
        Duration.ZERO, Duration.ofMillis(3), Duration.ofMillis(5), 0);
    SweepLevelResult refused = Levels.closed(16).requests(16, i -> Traces.at(i).failed(dev.llmbench.client.ErrorKind.CONNECTION, 0,
        "could not connect to 127.0.0.1:1").build()).clientLoad(busy).build();
    assertThat(refused.succeeded()).isZero();
    assertThat(ClientCheck.reasons(refused)).isEmpty();
    assertThat(refused.findings()).noneMatch(f -> f.kind() == dev.llmbench.result.FindingKind.CLIENT_BOUND);
    // The same client figures on a level that streamed are read as before.
    ClientLoad reading = new ClientLoad(2, Duration.ofMillis(3), 0.3, 0.407, Duration.ofNanos(20_000), 0.95, 0.99,
        Duration.ZERO, Duration.ofMillis(3), Duration.ofMillis(5), 1000);
    assertThat(ClientCheck.reasons(level(reading))).hasSize(3);
  }
}
