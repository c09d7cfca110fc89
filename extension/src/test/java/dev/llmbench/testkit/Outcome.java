package dev.llmbench.testkit;

import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * How one test or container of a fixture run ended: passed, failed, aborted (an assumption or a shard's
 * empty share) or skipped (never started, with a reason).
 */
public record Outcome(String displayName, String uniqueId, boolean isTest, Status status, Optional<Throwable> throwable,
    Optional<String> skipReason) {

  /** The four ways a test ends on the JUnit Platform. */
  public enum Status { SUCCESSFUL, FAILED, ABORTED, SKIPPED }

  /** The outcome a finished or skipped event reports; empty for any other event. */
  static Optional<Outcome> of(Event event) {
    var descriptor = event.getTestDescriptor();
    if (descriptor.getUniqueId().getSegments().size() == 1) return Optional.empty(); // the engine itself
    String name = descriptor.getDisplayName();
    String id = descriptor.getUniqueId().toString();
    if (event.getType() == EventType.SKIPPED) {
      return Optional.of(new Outcome(name, id, descriptor.isTest(), Status.SKIPPED, Optional.empty(),
          event.getPayload(String.class)));
    }
    if (event.getType() != EventType.FINISHED) return Optional.empty();
    TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
    Status status = switch (result.getStatus()) {
      case SUCCESSFUL -> Status.SUCCESSFUL;
      case FAILED -> Status.FAILED;
      case ABORTED -> Status.ABORTED;
    };
    return Optional.of(new Outcome(name, id, descriptor.isTest(), status, result.getThrowable(), Optional.empty()));
  }

  /** One line (more if the message has several) for a failure message: {@code C=2: failed with X: message}. */
  String describe() {
    String how = switch (status) {
      case SUCCESSFUL -> "passed";
      case SKIPPED -> "skipped: " + skipReason.orElse("(no reason)");
      case FAILED, ABORTED -> (status == Status.FAILED ? "failed with " : "aborted with ")
          + throwable.map(t -> t.getClass().getName() + ": " + t.getMessage()).orElse("no exception");
    };
    return (displayName + ": " + how).replace("\n", "\n      ");
  }
}
