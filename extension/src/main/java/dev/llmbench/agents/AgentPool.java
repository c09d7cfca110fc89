package dev.llmbench.agents;

/**
 * Where a level's agents come from: a trace's top-level sessions ({@link AgentTraceReader.Read}) or seeded synthetic
 * ones ({@link SyntheticAgentPool}). Agent {@code i} is a pure function of {@code i}, so runs repeat exactly.
 */
interface AgentPool {

  /** Agent {@code index}, from 0; a trace's wrap round. */
  AgentSession agent(int index);

  /** Tokens per block of a turn's {@code hash_ids}. */
  int blockTokens();

  /** What the sweep's table says of the prompts, e.g. {@code agents:trace.jsonl}. */
  String name();

  /** The agents for people, e.g. {@code 3 agents (5 sessions with sub-agents) of trace.jsonl}. */
  String describe();

  /** The agents' mean turns, their own (for planning). */
  double meanTurns();

  /** The mean tool time after a turn, ms, unscaled. */
  double meanToolMillis();
}
