package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.core.MeasuredLevel;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A level's agents as a test reads them: the figures of the level's {@code agents} section (docs/agents.md, "What a
 * level reports"), for assertions beside those on the level's requests.
 *
 * <pre>{@code
 * AgentFigures agents = AgentFigures.of(level).orElseThrow();
 * assertThat(agents.completed()).isEqualTo(agents.started());
 * }</pre>
 *
 * @param started           top-level agents whose first turn went
 * @param completed         those whose every turn, and every turn of their sub-agents, was answered
 * @param subAgents         sub-agents started, nested ones included
 * @param turnsMean         an agent's own turns sent, on average
 * @param wallP50           the median wall time of a completed agent, first turn's start to last turn's end
 * @param wallP90           its 90th percentile
 * @param modelShare        the agents' own turns' time in the server over their wall time, summed over agents
 * @param toolShare         the tool time they waited over their wall time
 * @param subAgentWaitShare how much longer than their tool time they waited for their sub-agents, over their wall time
 * @param criticalPath      the chain of turns, tool gaps and sub-agents' turns that set the completed agents' wall times
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record AgentFigures(int started, int completed, int subAgents, double turnsMean, Duration wallP50,
    Duration wallP90, double modelShare, double toolShare, double subAgentWaitShare, CriticalPath criticalPath) {

  /**
   * The agents' critical paths (docs/agents.md, "The critical path"): the level's {@code critical_path} in its JSON.
   *
   * @param p50           the median critical path of a completed agent
   * @param p90           its 90th percentile
   * @param modelShare    the paths' time in the server (sub-agents' turns on them included), over their length
   * @param toolShare     their time in tools
   * @param otherShare    neither: spawning, joining, the runner's lateness
   * @param subAgentShare the part that runs through sub-agents (their turns and tool gaps)
   */
  @API(status = EXPERIMENTAL, since = "0.2")
  public record CriticalPath(Duration p50, Duration p90, double modelShare, double toolShare, double otherShare,
      double subAgentShare) {}

  /**
   * {@return the figures of {@code level}'s agents; empty when it sent none (no {@link AgentTrace} or
   * {@link SyntheticAgents}) or was read back from its files, which keep no ledger of its agents}
   *
   * @param level a level of a sweep that sends agents
   */
  public static Optional<AgentFigures> of(SweepLevelResult level) {
    if (!(level instanceof MeasuredLevel measured)) return Optional.empty();
    Optional<AgentWorkload> agents = measured.plan().workload().prompts().sessions()
        .filter(AgentWorkload.class::isInstance).map(AgentWorkload.class::cast);
    return agents.flatMap(a -> AgentsFeature.figures(a, measured)).map(f -> new AgentFigures(f.started(), f.completed(),
        f.subAgents(), f.turnsMean(), millis(f.wallMs(50)), millis(f.wallMs(90)), f.modelShare(), f.toolShare(),
        f.subAgentShare(), new CriticalPath(millis(f.pathMs(50)), millis(f.pathMs(90)), f.pathModelShare(),
        f.pathToolShare(), f.pathOtherShare(), f.pathSubAgentShare())));
  }

  /** A wall time of NaN ms (no agent completed) is zero. */
  private static Duration millis(double ms) {
    return Double.isNaN(ms) ? Duration.ZERO : Duration.ofNanos(Math.round(ms * 1e6));
  }
}
