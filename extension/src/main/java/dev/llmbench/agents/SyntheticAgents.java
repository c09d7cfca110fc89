package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Agents for a team without a trace: seeded sessions drawn from distributions, run as {@link AgentTrace}'s are (live
 * history, tool time between turns, sub-agents fanned out and joined). Agent {@code i} is a pure function of
 * {@link #seed()} and {@code i}. Every distribution is written as {@code @Workload}'s lengths are ({@code 8},
 * {@code uniform(2,6)}, {@code lognormal(mean,median,max=N)}, {@code empirical(1:80,2:20)}); each default is taken from
 * a published statistic of agent traces, cited in docs/agents.md ("Synthetic agents").
 *
 * <pre>{@code
 * @ConcurrencySweep({4, 16, 64})
 * @SyntheticAgents(turns = "lognormal(22,15,max=60)", systemTokens = 2000)
 * void agents(SweepLevelResult r) { ... }
 * }</pre>
 *
 * <p>Each agent: a system prompt of {@link #systemTokens()} tokens shared by every agent and its sub-agents (a
 * harness's prompt and tools); {@link #turns()} turns, the first the user's task, each later one a tool's result, each
 * adding {@link #turnTokens()} new tokens to the history; {@link #outputTokens()} as each turn's {@code max_tokens};
 * {@link #toolTimeMillis()} after every reply but the last; after a turn (not the last), with probability
 * {@link #fanOut()}, {@link #fanOutWidth()} sub-agents of {@link #subAgentTurns()} turns each, which do not fan out
 * further. Under a {@link ConcurrencySweep} C agents are in flight; under a {@link RateSweep} they arrive at the rate.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.2")
public @interface SyntheticAgents {

  /**
   * {@return the agents each level sends, whole; 0 for automatic: 2 per slot of a closed loop (at least 4), 10 seconds
   * of arrivals of an open loop (at least 4)} {@link Measurement#duration()} instead stops starting agents and turns
   * once it has passed.
   */
  int agents() default 0;

  /** {@return an agent's turns (model calls): mean 22 (Exgentic's 10,056 traces), median 15 (TraceLab's steps per session)} */
  String turns() default "lognormal(22,15,max=300)";

  /** {@return the system prompt's tokens, shared by every agent: about 15K for Claude Code (Weka's trace spec); 0 for none} */
  int systemTokens() default 15000;

  /** {@return the new tokens each turn adds to the history: median 951 (TraceLab, Claude Code, 32-64K context)} */
  String turnTokens() default "lognormal(2336,951,max=32768)";

  /** {@return each turn's {@code max_tokens}: median 150 (Artificial Analysis' AgentPerf)} */
  String outputTokens() default "lognormal(518,150,max=8192)";

  /** {@return a tool's time after a reply, ms: median 125 ms (TraceLab, Claude Code), at most 10 s (AgentX's idle cap); 0 for none} */
  String toolTimeMillis() default "lognormal(1296,125,max=10000)";

  /** {@return the chance that a turn (not the last) fans out sub-agents, from 0 to 1} */
  double fanOut() default 0.05;

  /** {@return the sub-agents a fan-out starts} */
  String fanOutWidth() default "1";

  /** {@return a sub-agent's turns} */
  String subAgentTurns() default "lognormal(15,10,max=300)";

  /**
   * {@return a header sent with every turn whose value names the agent (e.g. {@code X-Session-ID}), for routers that
   * pin a session to one replica; empty for none}
   */
  String affinityHeader() default "";

  /** {@return the seed of every draw} */
  long seed() default 0;
}
