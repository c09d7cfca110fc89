package dev.llmbench.testkit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs one fixture class in a JVM of its own, for tests of what happens to that JVM (a SIGTERM in the
 * middle of a level, its environment): {@code FixtureMain <class> [key=value ...]}. Prints each failure as
 * {@code FAILED <display name>: <exception class>: <message>}, for the test that started it to read.
 */
public final class FixtureMain {

  private FixtureMain() {}

  public static void main(String[] args) throws ClassNotFoundException {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectClass(Class.forName(args[0])))
        // Not the project's .llmbench/history.jsonl: a test that wants a history names one.
        .configurationParameter("llmbench.history.file", "off");
    for (int i = 1; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      request.configurationParameter(kv[0], kv[1]);
    }
    LauncherDiscoveryRequest built = request.build();
    LauncherFactory.create().execute(built, new TestExecutionListener() {
      @Override
      public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        result.getThrowable().filter(t -> result.getStatus() == TestExecutionResult.Status.FAILED).ifPresent(t ->
            System.out.println("FAILED " + test.getDisplayName() + ": " + t.getClass().getName() + ": " + t.getMessage()));
      }
    });
  }
}
