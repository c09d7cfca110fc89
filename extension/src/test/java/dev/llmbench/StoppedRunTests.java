package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.server.PrometheusText;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.FixtureMain;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** A run that is stopped from outside keeps what it measured: a server killed mid-sweep, a JVM stopped mid-level. */
class StoppedRunTests {

  @Test
  void aServerKilledDuringALevelEndsItCountedAndWrittenAndTheNextLevelsFailAtOnce() throws Exception {
    EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.FIXED_20MS, 0, Duration.ZERO);
    // Killed once the first level is under way: past the warm-up's 2 x 16 tokens, within its ~10 s of requests.
    Thread killer = new Thread(() -> {
      try {
        awaitGenerated(server, 200, Duration.ofSeconds(60));
      } finally {
        server.close();
      }
    });
    BenchKit.Run run;
    try {
      killer.start();
      run = BenchKit.run(KilledServerTestCases.class, "llmbench.base-url", server.baseUrl().toString());
    } finally {
      killer.interrupt();
      server.close();
    }
    // Never waited on: the levels after the crash end well inside one readiness timeout (30 s), however slow
    // the machine made the level the kill cut short.
    assertThat(between(run, "C=4", "C=8")).as("from the start of C=4 to the end of C=8").isLessThan(Duration.ofSeconds(30));
    // How many of C=2's requests the kill cut off, and how, is the schedule's to say.
    assertThat(run).level("C=2").failedWith(AssertionError.class)
        .hasMessageMatching(Messages.pattern("C=2: expected no failed requests but {n} of 20 failed:\n  - {*}"));
    String stopped = "LLM endpoint http://127.0.0.1:{n}/ stopped answering after C=2 (ConnectException: Failed to connect "
        + "to /127.0.0.1:{n}): the server may have crashed or been stopped; see its log";
    assertThat(run).level("C=4").failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(stopped));
    assertThat(run).level("C=8").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("not tried again: " + stopped));
    JsonNode level = ResultJson.read(Files.readString(run.sweepDir(KilledServerTestCases.class, "sweep").resolve("C=2.json")));
    assertThat(level.get("failed").asInt()).as("requests cut off by the kill, counted").isPositive();
    assertThat(Files.readString(run.sweepDir(KilledServerTestCases.class, "sweep").resolve("table.txt"))).contains("C= 2 |");
  }

  /** From the start of the test named {@code first} to the end of the one named {@code last}. */
  static Duration between(BenchKit.Run run, String first, String last) {
    Instant started = run.tests().started().stream().filter(e -> e.getTestDescriptor().getDisplayName().equals(first))
        .findFirst().orElseThrow().getTimestamp();
    Instant finished = run.tests().finished().stream().filter(e -> e.getTestDescriptor().getDisplayName().equals(last))
        .findFirst().orElseThrow().getTimestamp();
    return Duration.between(started, finished);
  }

  /** Polls the engine's own counter until it has generated {@code tokens} tokens, or gives up. */
  static void awaitGenerated(EmbeddedLlmServer server, int tokens, Duration limit) {
    OkHttpClient http = new OkHttpClient();
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
      try (Response r = http.newCall(new Request.Builder().url(server.baseUrl() + "/metrics").build()).execute()) {
        ServerMetrics m = new ServerMetrics("vllm", PrometheusText.parse(r.body().string()).series(), Map.of(), 1);
        if (m.counter("vllm:generation_tokens_total").orElse(0.0) >= tokens) return;
        Thread.sleep(20);
      } catch (IOException e) {
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @LlmEndpoint(readyTimeout = "30s", readyPollInterval = "100ms")
  static class KilledServerTestCases {
    @ConcurrencySweep({2, 4, 8})
    @Workload(maxTokens = 50)
    @Measurement(requests = 20)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  @Test
  void aJvmStoppedDuringALevelWritesWhatItMeasured() throws Exception {
    Path reports = Files.createTempDirectory(Files.createDirectories(Path.of("target", "testkit-reports")), "sigterm-");
    Path log = reports.resolve("child.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Allure's results of the child go beside its reports, not into the working directory.
    Process child = new ProcessBuilder(java, "-Dallure.results.directory=" + reports.resolve("allure-results"), "-cp",
        System.getProperty("java.class.path"), FixtureMain.class.getName(),
        LongLevelTestCases.class.getName(), "llmbench.report.dir=" + reports, "llmbench.progress=lines",
        "llmbench.progress-interval=200ms").redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      // Stopped once the level's own progress line says enough requests completed, however slow the machine.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline && completedSoFar(log) < 6 && child.isAlive()) {
        Thread.sleep(50);
      }
      assertThat(completedSoFar(log)).as("requests the child's progress lines reported before the SIGTERM; it printed:%n%s",
          Files.readString(log)).isGreaterThanOrEqualTo(6);
      child.destroy(); // SIGTERM
      assertThat(child.waitFor(20, TimeUnit.SECONDS)).as("the child exits after SIGTERM; it printed:%n%s",
          Files.readString(log)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    Path dir = reports.resolve(LongLevelTestCases.class.getName().replace('$', '.') + ".sweep");
    assertThat(Files.readString(log)).contains("the JVM is shutting down during C=2");
    JsonNode level = ResultJson.read(Files.readString(dir.resolve("C=2.json")));
    assertThat(level.get("completed").asInt()).as("requests completed before the SIGTERM").isGreaterThan(5);
    assertThat(level.get("llmbench").get("stop_reason").asText()).isEqualTo("INTERRUPTED");
    assertThat(Files.readString(dir.resolve("table.txt"))).contains("C= 2 |");
  }

  /** The most requests the child's progress lines for C=2 said were done: {@code C=2: 7/... (7 ok, ...}. */
  static int completedSoFar(Path log) throws IOException {
    if (!Files.exists(log)) return 0;
    Matcher m = PROGRESS_OK.matcher(Files.readString(log));
    int most = 0;
    while (m.find()) most = Math.max(most, Integer.parseInt(m.group(1)));
    return most;
  }

  static final Pattern PROGRESS_OK = Pattern.compile("C=2: .*?\\((\\d+) ok");

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class LongLevelTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 10)
    @Measurement(duration = "60s")
    void sweep(SweepLevelResult level) {}
  }

}
