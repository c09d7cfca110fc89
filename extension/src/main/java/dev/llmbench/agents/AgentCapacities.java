package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * What an {@link AgentCapacity} search found: for each tier, the most agents in flight that held it.
 *
 * @param tiers each tier's answer, in the annotation's order
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record AgentCapacities(List<Tier> tiers) {

  /**
   * Copies the list.
   *
   * @param tiers each tier's answer, in the annotation's order
   */
  public AgentCapacities {
    tiers = List.copyOf(tiers);
  }

  /**
   * {@return the answer of the tier named {@code name}}
   *
   * @param name a tier's name
   * @throws NoSuchElementException when no tier has that name
   */
  public Tier tier(String name) {
    return tiers.stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("no tier named \"" + name + "\"; the tiers are "
            + tiers.stream().map(Tier::name).toList()));
  }

  /**
   * One tier's answer.
   *
   * @param name      the tier's name
   * @param agents    the most agents in flight a probe held the tier at; 0 when none did
   * @param failedAt  the fewest agents a probe failed it at, if one did
   * @param brokenBy  what broke at {@code failedAt}, e.g. {@code TTFT p90 1.4 s above 1 s}; empty when none failed
   * @param closed    whether the bracket is closed: {@code failedAt} is {@code agents + 1}, or the tier held at the
   *                  range's high end, or failed at its low end
   * @param confidence      how sure the probes make us of the bracket, from 0 to 1: that the tier holds at
   *                        {@code agents} and fails at {@code failedAt} ({@code holdsConfidence} times
   *                        {@code failsConfidence}), or the one of them there is; NaN when neither is
   * @param holdsConfidence the share of bootstrap resamples of the requests of the probe at {@code agents} in which
   *                        the tier held (docs/agents.md, "Capacity per tier"); NaN when no probe held it
   * @param failsConfidence the share of resamples of the probe at {@code failedAt} in which it broke; NaN when none did
   */
  public record Tier(String name, int agents, OptionalInt failedAt, String brokenBy, boolean closed, double confidence,
      double holdsConfidence, double failsConfidence) {

    /**
     * A tier's answer whose confidence is unknown.
     *
     * @param name     the tier's name
     * @param agents   the most agents in flight a probe held the tier at; 0 when none did
     * @param failedAt the fewest agents a probe failed it at, if one did
     * @param brokenBy what broke at {@code failedAt}; empty when none failed
     * @param closed   whether the bracket is closed
     */
    public Tier(String name, int agents, OptionalInt failedAt, String brokenBy, boolean closed) {
      this(name, agents, failedAt, brokenBy, closed, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * {@return the answer for people, e.g. {@code interactive: holds 8 agents (fails at 9: TTFT p90 1.4 s above 1 s);
     * confidence 87% (8 holds in 97% of resamples, 9 fails in 90%)}}
     */
    public String statement() {
      String holds = agents == 0 ? "holds no probed number of agents" : "holds " + agents + " agent" + (agents == 1 ? "" : "s");
      String fails = failedAt.isPresent() ? " (fails at " + failedAt.getAsInt() + ": " + brokenBy + ")" : " (the most probed)";
      return name + ": " + holds + fails + (closed ? "" : ", bracket not closed") + confidenceText();
    }

    /** E.g. {@code ; confidence 87% (8 holds in 97% of resamples, 9 fails in 90%)}; empty when unknown. */
    private String confidenceText() {
      if (Double.isNaN(confidence)) return "";
      java.util.List<String> parts = new java.util.ArrayList<>();
      if (!Double.isNaN(holdsConfidence)) parts.add(agents + " holds in " + percent(holdsConfidence) + " of resamples");
      if (!Double.isNaN(failsConfidence)) {
        parts.add(failedAt.getAsInt() + " fails in " + percent(failsConfidence) + (parts.isEmpty() ? " of resamples" : ""));
      }
      return "; confidence " + percent(confidence) + " (" + String.join(", ", parts) + ")";
    }

    private static String percent(double share) {
      return String.format(java.util.Locale.ROOT, "%.0f%%", 100 * share);
    }
  }
}
