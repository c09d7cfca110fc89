package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Runs a fixture class through the Jupiter engine, for tests whose assertions live in the fixture. */
final class FixtureRuns {

  private FixtureRuns() {}

  /** Every test of the fixture passed, {@code tests} of them; a failure shows the fixture's own messages. */
  static void assertAllPass(Class<?> fixture, int tests) {
    var events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    assertThat(events.failed().stream().map(e -> e.getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("?")))
        .as("failures of %s", fixture.getSimpleName()).isEmpty();
    assertThat(events.succeeded().count()).as("tests of %s that passed", fixture.getSimpleName()).isEqualTo(tests);
  }
}
