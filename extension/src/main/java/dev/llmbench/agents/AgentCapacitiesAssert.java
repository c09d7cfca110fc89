package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on what an {@link AgentCapacity} search found; a failure quotes the tier's answer and what broke it.
 *
 * <pre>{@code
 * AgentCapacitiesAssert.assertThat(found).holds("interactive", 8).holds("background", 32);
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class AgentCapacitiesAssert extends AbstractAssert<AgentCapacitiesAssert, AgentCapacities> {

  private AgentCapacitiesAssert(AgentCapacities actual) {
    super(actual, AgentCapacitiesAssert.class);
  }

  /**
   * {@return an assertion on {@code actual}}
   *
   * @param actual what the search found
   */
  public static AgentCapacitiesAssert assertThat(AgentCapacities actual) {
    return new AgentCapacitiesAssert(actual);
  }

  /**
   * The tier named {@code tier} held at {@code agents} agents in flight or more.
   *
   * @param tier   a tier's name
   * @param agents the fewest agents it must hold
   * @return this assertion
   */
  public AgentCapacitiesAssert holds(String tier, int agents) {
    isNotNull();
    AgentCapacities.Tier t;
    try {
      t = actual.tier(tier);
    } catch (java.util.NoSuchElementException e) {
      failWithMessage("expected tier \"%s\" to hold at least %s but %s", tier, agents(agents), e.getMessage());
      return this;
    }
    if (t.agents() < agents) {
      failWithMessage("expected tier \"%s\" to hold at least %s but the search found: %s", tier, agents(agents),
          t.statement());
    }
    return this;
  }

  private static String agents(int n) {
    return n + (n == 1 ? " agent" : " agents");
  }

  /**
   * Every tier's answer at least {@code minimum} sure ({@link AgentCapacities.Tier#confidence()}): that it holds at its
   * agents and fails at one more, as sure as bootstrap resamples of the probes' requests make it. A confidence that is
   * unknown fails too.
   *
   * @param minimum the least confidence, from 0 to 1, e.g. 0.9
   * @return this assertion
   */
  public AgentCapacitiesAssert hasConfidenceAtLeast(double minimum) {
    isNotNull();
    var unsure = actual.tiers().stream().filter(t -> !(t.confidence() >= minimum)).map(AgentCapacities.Tier::statement)
        .toList();
    if (!unsure.isEmpty()) {
      failWithMessage("expected every tier's answer at least %s sure but: %s", String.format(java.util.Locale.ROOT,
          "%.0f%%", 100 * minimum), String.join("; ", unsure));
    }
    return this;
  }

  /**
   * Every tier's bracket closed: the search ran until it knew each tier's answer to one agent (or the range's end).
   *
   * @return this assertion
   */
  public AgentCapacitiesAssert isSettled() {
    isNotNull();
    var open = actual.tiers().stream().filter(t -> !t.closed()).map(AgentCapacities.Tier::statement).toList();
    if (!open.isEmpty()) failWithMessage("expected every tier's bracket closed but: %s", String.join("; ", open));
    return this;
  }
}
