package dev.llmbench.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs fixture classes through the Jupiter engine, the way a user's build would, each run with a report
 * folder of its own (so that files left by an earlier run can never make a test pass).
 *
 * <pre>{@code
 * BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class);
 * run.assertAllPass(3);
 * assertThat(run.sweepDir(ThreeLevelsTestCases.class, "sweep").resolve("table.txt")).exists();
 * }</pre>
 */
public final class BenchKit {

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
        .configurationParameter("llmbench.report.dir", reports.toString());
    for (int i = 0; i < configuration.length; i += 2) kit = kit.configurationParameter(configuration[i], configuration[i + 1]);
    return new Run(fixture, kit.execute(), reports);
  }

  private static Path newReportDir() {
    try {
      Path target = Files.createDirectories(Path.of("target", "testkit-reports"));
      return Files.createTempDirectory(target, "run-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One fixture run: the engine's events and the report folder it wrote to. */
  public record Run(Class<?> fixture, EngineExecutionResults results, Path reportDir) {

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

    /** Every test of the fixture passed, {@code tests} of them; a failure shows the fixture's own messages. */
    public Run assertAllPass(int tests) {
      List<String> failures = tests().failed().stream().map(e -> e.getTestDescriptor().getDisplayName() + ": "
          + e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).map(Throwable::getMessage)
              .orElse("?")).toList();
      assertThat(failures).as("failures of %s", fixture.getSimpleName()).isEmpty();
      assertThat(all().failed().count()).as("failed containers of %s", fixture.getSimpleName()).isZero();
      assertThat(tests().succeeded().count()).as("tests of %s that passed", fixture.getSimpleName()).isEqualTo(tests);
      return this;
    }
  }
}
