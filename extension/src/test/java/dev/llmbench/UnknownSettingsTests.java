package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.FixtureMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * A misspelled key is never ignored: a run given an {@code llmbench.*} key or an {@code LLMBENCH_*} variable that is no
 * setting fails before any load, naming the nearest key; and a run told to require a server fails without one instead
 * of measuring the embedded engine.
 */
class UnknownSettingsTests {

  private static final String EVERY_KEY = ". An unknown key would be ignored, so nothing runs; every key is in docs/settings.md.";

  @Test
  void aMisspelledConfigurationParameterFailsEveryTestBeforeLoadNamingTheNearestKey() throws IOException {
    BenchKit.Run run = BenchKit.run(EndpointTestCases.class, "llmbench.baseurl", "http://127.0.0.1:8161",
        "llmbench.sweep.level", "1,2");
    String message = "Configuration error: unknown LLMBench settings: configuration parameter llmbench.baseurl (did you mean "
        + "llmbench.base-url?); configuration parameter llmbench.sweep.level (did you mean llmbench.sweep.levels?)" + EVERY_KEY;
    assertThat(run).test("smoke(LlmClient)").failedWith(ExtensionConfigurationException.class).hasMessage(message);
    assertThat(run).container("sweep(SweepLevelResult)").failedWith(ExtensionConfigurationException.class).hasMessage(message);
    // Nothing was measured: no level ran, and the sweep wrote no report.
    assertThat(run.tests().started().count()).as("tests started").isEqualTo(1);
    try (Stream<Path> written = Files.list(run.reportDir())) {
      assertThat(written).as("reports written").isEmpty();
    }
  }

  @Test
  void aKeyNearNoneSaysSo() {
    assertThat(BenchKit.run(EndpointTestCases.class, "llmbench.flux-capacitor", "on")).test("smoke(LlmClient)")
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: unknown LLMBench setting: "
            + "configuration parameter llmbench.flux-capacitor (no key is near it)" + EVERY_KEY);
  }

  /** A system property and an environment variable, as a user's shell gives them, in a JVM of their own. */
  @Test
  void aMisspelledSystemPropertyAndEnvironmentVariableFailNamingTheNearestKeys() throws Exception {
    Path reports = Files.createTempDirectory(Files.createDirectories(Path.of("target", "testkit-reports")), "unknown-");
    Path log = reports.resolve("child.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder child = new ProcessBuilder(java, "-Dllmbench.ready-timeout=5m", "-Dallure.results.directory="
        + reports.resolve("allure-results"), "-cp", System.getProperty("java.class.path"), FixtureMain.class.getName(),
        EndpointTestCases.class.getName(), "llmbench.report.dir=" + reports.resolve("llmbench"))
        .redirectErrorStream(true).redirectOutput(log.toFile());
    // Only the variables this test sets: none of the machine's own LLMBENCH_* (CI's) may reach the child.
    child.environment().keySet().removeIf(k -> k.startsWith("LLMBENCH_"));
    child.environment().put("LLMBENCH_BASEURL", "http://127.0.0.1:8161");
    child.environment().put("LLMBENCH_API_KEY", "secret-named-by-nobody");
    Process p = child.start();
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child ends").isTrue();
    } finally {
      p.destroyForcibly();
    }
    String message = "Configuration error: unknown LLMBench settings: system property llmbench.ready-timeout (did you mean "
        + "llmbench.ready.timeout?); environment variable LLMBENCH_API_KEY (did you mean LLMBENCH_API_KEY_ENV?); environment "
        + "variable LLMBENCH_BASEURL (did you mean LLMBENCH_BASE_URL?)" + EVERY_KEY;
    List<String> failed = Files.readAllLines(log).stream().filter(l -> l.startsWith("FAILED ")).toList();
    assertThat(failed).as("the child's failures; it printed:%n%s", Files.readString(log)).containsExactly(
        "FAILED smoke(LlmClient): org.junit.jupiter.api.extension.ExtensionConfigurationException: " + message,
        "FAILED sweep(SweepLevelResult): org.junit.jupiter.api.extension.ExtensionConfigurationException: " + message);
  }

  @Test
  void requireServerFailsARunWithoutAUrlBeforeLoadSayingHowToSetIt() {
    BenchKit.Run run = BenchKit.run(EndpointTestCases.class, "llmbench.require-server", "true");
    String fix = ", and llmbench.require-server is true (from configuration parameter llmbench.require-server), so the "
        + "embedded engine, a simulator, is not measured instead. Set the server's URL: -Dllmbench.base-url=http://host:8000, "
        + "the environment variable LLMBENCH_BASE_URL, or @LlmEndpoint(baseUrl)";
    assertThat(run).test("smoke(LlmClient)").failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: @LlmEndpoint on [EndpointTestCases#smoke]: no server is set" + fix);
    assertThat(run).level("C=1").failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: @LlmEndpoint on [EndpointTestCases#sweep]: no server is set" + fix);
  }

  @Test
  void requireServerLetsARunWithAUrlThrough() {
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.INSTANT, 0, Duration.ZERO)) {
      assertThat(BenchKit.run(EndpointTestCases.class, "llmbench.require-server", "true", "llmbench.base-url",
          server.baseUrl().toString())).passed("smoke(LlmClient)", "C=1");
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class EndpointTestCases {
    @Test
    void smoke(LlmClient llm) {
      llm.chat("Hello");
    }

    @ConcurrencySweep(1)
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {}
  }
}
