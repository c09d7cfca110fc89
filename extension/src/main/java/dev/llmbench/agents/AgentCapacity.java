package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * How many agents in flight the deployment holds at each service tier, in one search: probes of C agents (an
 * {@link AgentTrace}'s or {@link SyntheticAgents}' agents, closed loop), each measured and reported as a sweep's level,
 * each judged against every {@link AgentTier}; each tier keeps its own bracket (the most agents that held, the fewest
 * that did not) and the search goes on, doubling then bisecting, until every tier's bracket is closed or
 * {@link #maxProbes()} probes have run. The method then runs once with the {@link AgentCapacities} found.
 *
 * <pre>{@code
 * @AgentCapacity(agents = {1, 64}, tiers = {
 *     @AgentTier(name = "interactive", ttftMillis = 1000, tpotMillis = 50),
 *     @AgentTier(name = "background", ttftMillis = 10000)})
 * @AgentTrace("traces/agents.jsonl")
 * void capacity(AgentCapacities found) {
 *   assertThat(found.tier("interactive").agents()).isGreaterThanOrEqualTo(8);
 * }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(AgentCapacityExtension.class)
@Execution(ExecutionMode.SAME_THREAD)
@API(status = EXPERIMENTAL, since = "0.2")
public @interface AgentCapacity {

  /** {@return the range of agents in flight searched, {low, high}, 1 &lt;= low &lt; high} */
  int[] agents();

  /** {@return the tiers, at least one, each name once} */
  AgentTier[] tiers();

  /** {@return at most this many probes} */
  int maxProbes() default 12;
}
