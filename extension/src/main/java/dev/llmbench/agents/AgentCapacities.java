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
   */
  public record Tier(String name, int agents, OptionalInt failedAt, String brokenBy, boolean closed) {

    /** {@return the answer for people, e.g. {@code interactive: holds 8 agents (fails at 9: TTFT p90 1.4 s above 1 s)}} */
    public String statement() {
      String holds = agents == 0 ? "holds no probed number of agents" : "holds " + agents + " agent" + (agents == 1 ? "" : "s");
      String fails = failedAt.isPresent() ? " (fails at " + failedAt.getAsInt() + ": " + brokenBy + ")" : " (the most probed)";
      return name + ": " + holds + fails + (closed ? "" : ", bracket not closed");
    }
  }
}
