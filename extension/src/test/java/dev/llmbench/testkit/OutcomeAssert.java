package dev.llmbench.testkit;

import org.assertj.core.api.AbstractStringAssert;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.Assertions;

/** How one test or container of a run ended; reached through {@link RunAssert}. */
public final class OutcomeAssert extends org.assertj.core.api.AbstractAssert<OutcomeAssert, Outcome> {

  private final String fixture;

  OutcomeAssert(Outcome outcome, String fixture) {
    super(outcome, OutcomeAssert.class);
    this.fixture = fixture;
  }

  /** It passed. */
  public OutcomeAssert succeeded() {
    is(Outcome.Status.SUCCESSFUL, "to pass");
    return this;
  }

  /** It failed with an exception of {@code type} (or a subtype); go on with assertions on that exception. */
  public AbstractThrowableAssert<?, ? extends Throwable> failedWith(Class<? extends Throwable> type) {
    return ended(Outcome.Status.FAILED, "to fail", type);
  }

  /** It was aborted (an assumption failed) with an exception of {@code type}; go on with assertions on it. */
  public AbstractThrowableAssert<?, ? extends Throwable> wasAbortedWith(Class<? extends Throwable> type) {
    return ended(Outcome.Status.ABORTED, "to be aborted", type);
  }

  /** It never started; go on with assertions on the reason given. */
  public AbstractStringAssert<?> wasSkipped() {
    is(Outcome.Status.SKIPPED, "to be skipped");
    return Assertions.assertThat(actual.skipReason().orElse(null)).as("the reason %s was skipped", actual.displayName());
  }

  private AbstractThrowableAssert<?, ? extends Throwable> ended(Outcome.Status status, String wanted,
      Class<? extends Throwable> type) {
    is(status, wanted + " with " + type.getName());
    Throwable thrown = actual.throwable().orElse(null);
    if (!type.isInstance(thrown)) {
      failWithMessage("Expecting %s of %s %s with %s but it ended:%n  %s", actual.displayName(), fixture, wanted,
          type.getName(), actual.describe());
    }
    return Assertions.assertThat(thrown).as("the exception of %s", actual.displayName());
  }

  private void is(Outcome.Status status, String wanted) {
    isNotNull();
    if (actual.status() != status) {
      failWithMessage("Expecting %s of %s %s but it ended:%n  %s", actual.displayName(), fixture, wanted, actual.describe());
    }
  }
}
