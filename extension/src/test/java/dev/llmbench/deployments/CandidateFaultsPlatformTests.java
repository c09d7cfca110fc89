package dev.llmbench.deployments;

import static dev.llmbench.deployments.LaunchedCandidatesPlatformTests.engine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What goes wrong with launched candidates, each reported with its reason and without losing what the others
 * measured: a command that exits at once, a port still held by the previous candidate, a deployment by URL where the
 * candidates are launched, a candidate never ready within its limit.
 */
class CandidateFaultsPlatformTests {

  @Test
  void aCandidateThatExitsAtOnceIsReportedWithItsLastLinesAndTheMatrixGoesOn() {
    BenchKit.Run run = BenchKit.run(ExitsAtOnce.class, "llmbench.launch.command", "sh -c ${script}",
        "llmbench.launch.env", "ENGINE='" + engine("8135") + "'");
    String log = run.reportDir().resolve("server-broken.log").toString();
    String exited = "LLM endpoint http://127.0.0.1:8135/ cannot become ready: the server `sh -c 'echo loading weights; "
        + "echo fatal: out of memory >&2; exit 3'` exited with exit code 3 {duration} after launch, before it was ready. "
        + "Last 2 lines of its log " + log + ":\n"
        + "  | loading weights\n"
        + "  | fatal: out of memory";
    assertThat(run).level("C=1 · broken").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern(exited));
    assertThat(run).level("C=2 · broken").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("not waited for again: " + exited));
    assertThat(run).level("C=1 · good").succeeded();
    assertThat(run).level("C=2 · good").succeeded();
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:8135", readyPollInterval = "100ms", readyTimeout = "1m")
  @LaunchServer(command = "set by the test's configuration")
  @Deployment(name = "broken", serve = "script=echo loading weights; echo fatal: out of memory >&2; exit 3")
  @Deployment(name = "good", serve = "script=exec $ENGINE")
  static class ExitsAtOnce {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    void sweep(SweepLevelResult level) {}
  }

  @Test
  void aCandidateNeverReadyWithinItsLimitIsStoppedAndTheMatrixGoesOn() {
    BenchKit.Run run = BenchKit.run(NeverReady.class, "llmbench.launch.command", "sh -c ${script}",
        "llmbench.launch.env", "ENGINE='" + engine("8134") + "'");
    assertThat(run).level("C=1 · loading").failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(
        "LLM endpoint http://127.0.0.1:8134/ was not ready after {duration} (limit 30s, llmbench.ready.timeout); last "
            + "status: GET /health answered 503 {*}. Check that the server is running and loading the model, or raise "
            + "llmbench.ready.timeout."));
    // Stopped before the next started: the next found its port free, started, and was measured.
    assertThat(run).level("C=1 · good").succeeded();
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:8134", readyPollInterval = "200ms", readyTimeout = "30s")
  @LaunchServer(command = "set by the test's configuration", stopGrace = "5s")
  @Deployment(name = "loading", serve = "script=exec $ENGINE --startup-delay PT10M")
  @Deployment(name = "good", serve = "script=exec $ENGINE")
  static class NeverReady {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    void sweep(SweepLevelResult level) {}
  }

  @Test
  void aPortStillHeldByThePreviousCandidateStopsTheNextBeforeItStarts() throws Exception {
    // 'escapee' serves from a process that leaves its process tree (a daemon), so stopping the candidate leaves the port held.
    String daemon = "(" + engine("8136", "--profile", "instant") + " >/dev/null 2>&1 &); exec sleep 600";
    try {
      BenchKit.Run run = BenchKit.run(PortHeld.class, "llmbench.launch.command", "sh -c ${script}",
          "llmbench.launch.env", "DAEMON='" + daemon + "'");
      assertThat(run).level("C=1 · escapee").succeeded();
      assertThat(run).level("C=1 · next").failedWith(EndpointNotReadyException.class).hasMessage("candidate 'next' was not "
          + "started: port 8136 is still held 10 s after candidate 'escapee' stopped; a process of 'escapee' may have left "
          + "its process tree (a daemon, a container not removed): stop it, or give each candidate its own port");
      assertThat(run.reportDir().resolve("server-next.log")).as("never launched").doesNotExist();
      assertThat(Files.readString(run.sweepDir(PortHeld.class, "sweep").resolve("table.txt"))).contains("C=1 · escapee");
    } finally {
      // The daemon this test started on purpose: found by its port, stopped by its pid.
      List<ProcessHandle> daemons = ProcessHandle.allProcesses().filter(p -> cmdline(p).contains("EngineMain\0--port\08136"))
          .toList();
      daemons.forEach(ProcessHandle::destroy);
      for (ProcessHandle d : daemons) d.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /** {@code /proc/<pid>/cmdline}: its words, NUL between them; empty when it is gone or unreadable. */
  private static String cmdline(ProcessHandle p) {
    try {
      return Files.readString(java.nio.file.Path.of("/proc", Long.toString(p.pid()), "cmdline"),
          java.nio.charset.StandardCharsets.ISO_8859_1);
    } catch (java.io.IOException | RuntimeException e) {
      return "";
    }
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:8136", readyPollInterval = "100ms", readyTimeout = "1m")
  @LaunchServer(command = "set by the test's configuration", stopGrace = "2s")
  @Deployment(name = "escapee", serve = "script=eval \"$DAEMON\"")
  @Deployment(name = "next", serve = "script=exec sleep 600")
  static class PortHeld {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    void sweep(SweepLevelResult level) {}
  }

  @Test
  void aDeploymentByUrlOnTheCandidatesPortIsRefusedBeforeAnythingIsLaunched() {
    BenchKit.Run run = BenchKit.run(SamePort.class, "llmbench.launch.command", engine("8137"));
    assertThat(run).hasConfigurationError("Configuration error: sweep on method [SamePort#sweep]: deployment 'reference' "
        + "(http://127.0.0.1:8137) is on port 8137 of 127.0.0.1, where the suite launches the candidates [profile-instant, "
        + "profile-fixed-20ms]: they would find 'reference' answering there instead of themselves, or fail to bind it; "
        + "launch the candidates on another port, or move 'reference'");
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:8137")
  @LaunchServer(command = "set by the test's configuration")
  @Deployment(name = "reference", baseUrl = "http://127.0.0.1:8137")
  @ServeParam(name = "profile", values = {"instant", "fixed-20ms"})
  static class SamePort {
    @ConcurrencySweep(1)
    void sweep(SweepLevelResult level) {}
  }
}
