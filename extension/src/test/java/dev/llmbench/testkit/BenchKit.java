package dev.llmbench.testkit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.junitplatform.AllureJunitPlatform;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.AssertProvider;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs fixture classes through the Jupiter engine, the way a user's build would, each run with a report
 * folder of its own (so that files left by an earlier run can never make a test pass).
 *
 * <pre>{@code
 * BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class);
 * assertThat(run).passed("C=1", "C=2", "C=4");
 * assertThat(run.sweepDir(ThreeLevelsTestCases.class, "sweep").resolve("table.txt")).exists();
 * }</pre>
 */
public final class BenchKit {

  /** Allure results that go nowhere. */
  private static final AllureResultsWriter NO_RESULTS = new AllureResultsWriter() {
    @Override
    public void write(TestResult result) {}

    @Override
    public void write(TestResultContainer container) {}

    @Override
    public void write(String source, InputStream attachment) {}
  };

  private BenchKit() {}

  /** Runs {@code fixture} with configuration parameters given as key, value, key, value, ... */
  public static Run run(Class<?> fixture, String... configuration) {
    return run(fixture, selectClass(fixture), configuration);
  }

  /** Runs what {@code selector} picks of {@code fixture}, e.g. one invocation of a sweep as an IDE would. */
  public static Run run(Class<?> fixture, DiscoverySelector selector, String... configuration) {
    if (configuration.length % 2 != 0) throw new IllegalArgumentException("configuration comes in key, value pairs");
    Path reports = newReportDir();
    EngineTestKit.Builder kit = EngineTestKit.engine("junit-jupiter").selectors(selector)
        .configurationParameter("llmbench.report.dir", reports.toString())
        // A history of its own beside the reports: never the project's .llmbench/, never another run's series.
        .configurationParameter("llmbench.history.file", reports.resolveSibling(reports.getFileName() + "-history.jsonl").toString());
    for (int i = 0; i < configuration.length; i += 2) kit = kit.configurationParameter(configuration[i], configuration[i + 1]);
    // The fixture runs without Allure's listener, on the thread of the test (or @BeforeAll) that runs it:
    // with that test's Allure lifecycle it would write into that test's result, or into a fixture as if
    // it were a test ("Could not update test case ... not found"). It gets one with no test running.
    AllureLifecycle outer = Allure.getLifecycle();
    Allure.setLifecycle(new AllureLifecycle(NO_RESULTS));
    try {
      return new Run(fixture, kit.execute(), reports);
    } finally {
      Allure.setLifecycle(outer);
    }
  }


  /**
   * Runs {@code fixture} through the Launcher with Allure's JUnit Platform listener writing to
   * {@code results} (LLMBench's own report folder beside it), and returns every Allure test result there.
   */
  public static List<JsonNode> runWithAllure(Class<?> fixture, Path results, String... configuration) {
    if (configuration.length % 2 != 0) throw new IllegalArgumentException("configuration comes in key, value pairs");
    AllureLifecycle previous = Allure.getLifecycle();
    AllureLifecycle lifecycle = new AllureLifecycle(new FileSystemResultsWriter(results));
    Allure.setLifecycle(lifecycle); // AllureJupiter and LLMBench's own calls use the global lifecycle
    try {
      LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture))
          .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
          .configurationParameter("allure.results.directory", results.toString())
          .configurationParameter("llmbench.report.dir", results.resolveSibling(results.getFileName() + "-llmbench").toString())
          .configurationParameter("llmbench.history.file", results.resolveSibling(results.getFileName() + "-history.jsonl").toString());
      for (int i = 0; i < configuration.length; i += 2) request.configurationParameter(configuration[i], configuration[i + 1]);
      LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false)
          .addTestExecutionListeners(new AllureJunitPlatform(lifecycle)).build()).execute(request.build());
    } finally {
      Allure.setLifecycle(previous);
    }
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> read = new ArrayList<>();
    try (Stream<Path> files = Files.list(results)) {
      for (Path f : files.filter(f -> f.toString().endsWith("-result.json")).toList()) read.add(json.readTree(f.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return read;
  }

  private static Path newReportDir() {
    try {
      Path target = Files.createDirectories(Path.of("target", "testkit-reports"));
      return Files.createTempDirectory(target, "run-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One fixture run: the engine's events and the report folder it wrote to. AssertJ's {@code assertThat(run)}
   * gives a {@link RunAssert}.
   */
  public record Run(Class<?> fixture, EngineExecutionResults results, Path reportDir) implements AssertProvider<RunAssert> {

    @Override
    public RunAssert assertThat() {
      return new RunAssert(this);
    }

    public Events tests() {
      return results.testEvents();
    }

    public Events all() {
      return results.allEvents();
    }

    /** The folder a sweep of this run wrote: {@code <report dir>/<class's full name>.<method>}. */
    public Path sweepDir(Class<?> testClass, String method) {
      return reportDir.resolve(testClass.getName().replace('$', '.') + "." + method);
    }
  }
}
