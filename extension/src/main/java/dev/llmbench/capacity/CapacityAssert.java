package dev.llmbench.capacity;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.format.Formats;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link Capacity}; a failure quotes the search's statement and evidence. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CapacityAssert extends AbstractAssert<CapacityAssert, Capacity> {

  /**
   * Made by {@code LlmBenchAssertions.assertThat}, the one entry point of the assertions.
   *
   * @param actual the capacity asserted on
   */
  @API(status = INTERNAL)
  public CapacityAssert(Capacity actual) {
    super(actual, CapacityAssert.class);
  }

  /**
   * The SLO held at {@code load} (C, or requests per second) or above.
   *
   * @return this assertion
   * @param load the least load (C, or requests per second) the capacity must reach
   */
  public CapacityAssert isAtLeast(double load) {
    isNotNull();
    if (actual.outcome() == Capacity.Outcome.STOPPED || actual.outcome() == Capacity.Outcome.SEARCHING || actual.load() < load) {
      failWithMessage("expected a capacity of at least %s but the search found: %s", name(load), actual.statement());
    }
    return this;
  }

  /** {@code C=12} or {@code 4.5 req/s}, as {@link Capacity#statement()} names a load. */
  private String name(double load) {
    return actual.closedLoop() ? "C=" + (int) load : Formats.rate(load) + " req/s";
  }
}
