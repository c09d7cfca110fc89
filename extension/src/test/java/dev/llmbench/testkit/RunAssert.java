package dev.llmbench.testkit;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * AssertJ assertions on a whole fixture run, in the way of junit-pioneer's {@code ExecutionResults}
 * assertions: pick a test by its display name and say how it ended, with the exact message users read.
 *
 * <pre>{@code
 * assertThat(run).level("C=2").failedWith(AssertionError.class).hasMessage("C=2: ...");
 * assertThat(run).hasSingleFailedContainer().failedWith(ExtensionConfigurationException.class).hasMessage("...");
 * assertThat(run).passed("C=1", "C=2", "scales (after the sweep)");
 * }</pre>
 *
 * Every failure of these assertions lists each test of the run and how it ended.
 */
public final class RunAssert extends AbstractAssert<RunAssert, BenchKit.Run> {

  RunAssert(BenchKit.Run run) {
    super(run, RunAssert.class);
  }

  /** The level (a test) of the run whose display name is {@code name}: {@code C=2}, {@code rate=16/s}. */
  public OutcomeAssert level(String name) {
    return test(name);
  }

  /**
   * The one test of the run whose display name is {@code name}: a level, an {@code @AfterSweep} test
   * ({@code scales (after the sweep)}) or a plain test ({@code check()}).
   */
  public OutcomeAssert test(String name) {
    return single(o -> o.isTest() && o.displayName().equals(name), "one test named \"" + name + "\"");
  }

  /** The one container (class, sweep method) of the run whose display name is {@code name}. */
  public OutcomeAssert container(String name) {
    return single(o -> !o.isTest() && o.displayName().equals(name), "one container named \"" + name + "\"");
  }

  /** The run's one failed test; fails if there is none or more than one. */
  public OutcomeAssert hasSingleFailedTest() {
    return single(o -> o.isTest() && o.status() == Outcome.Status.FAILED, "exactly one failed test");
  }

  /** The run's one failed container (a configuration error fails the sweep's container); fails if not exactly one. */
  public OutcomeAssert hasSingleFailedContainer() {
    return single(o -> !o.isTest() && o.status() == Outcome.Status.FAILED, "exactly one failed container");
  }

  /** The run's one failure, of a test or a container; fails if there is none or more than one. */
  public OutcomeAssert hasSingleFailure() {
    return single(o -> o.status() == Outcome.Status.FAILED, "exactly one failure");
  }

  /**
   * The run's one failure is a configuration error with exactly {@code message}: what users read when a sweep is
   * declared wrong ({@code Configuration error: sweep on method [...]: ...}).
   */
  public RunAssert hasConfigurationError(String message) {
    hasSingleFailure().failedWith(ExtensionConfigurationException.class).hasMessage(message);
    return this;
  }

  /** Every test of the run passed, {@code count} of them, and no container failed. */
  public RunAssert allTestsPassed(int count) {
    isNotNull();
    List<Outcome> notPassed = outcomes().stream().filter(o -> o.status() != Outcome.Status.SUCCESSFUL).toList();
    long tests = outcomes().stream().filter(Outcome::isTest).count();
    if (!notPassed.isEmpty() || tests != count) {
      failWithMessage("Expecting all %d tests of %s to pass, but %d ran and %d did not pass:%n%s%nEvery outcome:%n%s",
          count, fixture(), tests, notPassed.size(), list(notPassed), list(outcomes()));
    }
    return this;
  }

  /** The run's tests are exactly {@code names}, in this order, and each passed; no container failed. */
  public RunAssert passed(String... names) {
    isNotNull();
    List<String> ran = outcomes().stream().filter(Outcome::isTest).map(Outcome::displayName).toList();
    List<Outcome> notPassed = outcomes().stream().filter(o -> o.status() != Outcome.Status.SUCCESSFUL).toList();
    if (!ran.equals(Arrays.asList(names)) || !notPassed.isEmpty()) {
      failWithMessage("Expecting the tests of %s to be %s, each passed, but they were %s and these did not pass:%n%s",
          fixture(), Arrays.asList(names), ran, notPassed.isEmpty() ? "  (none)" : list(notPassed));
    }
    return this;
  }

  /** Each outcome of the run (tests and containers), in the order they ended. */
  public List<Outcome> outcomes() {
    return actual.all().stream().map(Outcome::of).flatMap(java.util.Optional::stream).toList();
  }

  private OutcomeAssert single(Predicate<Outcome> which, String wanted) {
    isNotNull();
    List<Outcome> found = outcomes().stream().filter(which).toList();
    if (found.size() != 1) {
      failWithMessage("Expecting %s in the run of %s but found %d; every outcome:%n%s", wanted, fixture(), found.size(),
          list(outcomes()));
    }
    return new OutcomeAssert(found.get(0), fixture());
  }

  private String fixture() {
    return actual.fixture().getSimpleName();
  }

  static String list(List<Outcome> outcomes) {
    return outcomes.stream().map(o -> "  - " + (o.isTest() ? "" : "[container] ") + o.describe())
        .collect(Collectors.joining(System.lineSeparator()));
  }
}
