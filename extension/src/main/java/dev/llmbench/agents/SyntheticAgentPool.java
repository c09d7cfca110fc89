package dev.llmbench.agents;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.LengthDistribution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Seeded synthetic agents ({@link SyntheticAgents}): agent {@code i} a pure function of the seed and {@code i}, each
 * draw from a stream of its own, made once and kept (the runner asks for an agent's turns many times).
 */
final class SyntheticAgentPool implements AgentPool {

  /** At most this many turns an agent, so that a turn's index fits the draws' index space. */
  static final int MAX_TURNS = 1000;
  private static final long TURNS = 0x7475726e73L;
  private static final long INPUT = 0x696e707574L;
  private static final long OUTPUT = 0x6f7574707574L;
  private static final long TOOL = 0x746f6f6cL;
  private static final long FAN = 0x66616e4f7574L;
  private static final long WIDTH = 0x7769647468L;
  private static final long SUB = 0x737562L;

  private final LengthDistribution turns;
  private final int systemTokens;
  private final LengthDistribution turnTokens;
  private final LengthDistribution outputTokens;
  private final LengthDistribution toolMillis; // null: no tool time
  private final double fanOut;
  private final LengthDistribution width;
  private final LengthDistribution subAgentTurns;
  private final long seed;
  private final Map<Integer, AgentSession> made = new ConcurrentHashMap<>();
  private final List<ChatMessage> opening; // one system prompt for every agent: made once, however many agents start

  SyntheticAgentPool(LengthDistribution turns, int systemTokens, LengthDistribution turnTokens,
      LengthDistribution outputTokens, LengthDistribution toolMillis, double fanOut, LengthDistribution width,
      LengthDistribution subAgentTurns, long seed) {
    this.turns = turns;
    this.systemTokens = systemTokens;
    this.turnTokens = turnTokens;
    this.outputTokens = outputTokens;
    this.toolMillis = toolMillis;
    this.fanOut = fanOut;
    this.width = width;
    this.subAgentTurns = subAgentTurns;
    this.seed = seed;
    this.opening = systemTokens > 0 ? List.of(ChatMessage.system(BlockWords.system(systemTokens))) : List.of();
  }

  @Override
  public AgentSession agent(int index) {
    return made.computeIfAbsent(index, this::make);
  }

  private AgentSession make(int index) {
    int n = Math.min(MAX_TURNS, turns.draw(seed ^ TURNS, index));
    long stream = (long) index * MAX_TURNS;
    Map<Integer, List<AgentSession>> sub = new HashMap<>();
    for (int t = 0; t + 1 < n; t++) {
      double u = (BlockWords.mix(seed ^ FAN ^ BlockWords.mix(stream + t)) >>> 11) * 0x1.0p-53;
      if (u >= fanOut) continue;
      int w = width.draw(seed ^ WIDTH, (int) (stream + t));
      List<AgentSession> spawned = new ArrayList<>(w);
      for (int c = 0; c < w; c++) {
        long childSeed = BlockWords.mix(seed ^ SUB ^ BlockWords.mix(stream + t) ^ c);
        int m = Math.min(MAX_TURNS, subAgentTurns.draw(childSeed ^ TURNS, 0));
        spawned.add(session("agent-" + index + "/" + t + "." + c, childSeed, 0, m, opening, Map.of()));
      }
      sub.put(t, spawned);
    }
    return session("agent-" + index, seed, stream, n, opening, sub);
  }

  /** A session of {@code n} turns whose draws are {@code stream + t} of {@code draws}. */
  private AgentSession session(String id, long draws, long stream, int n, List<ChatMessage> opening,
      Map<Integer, List<AgentSession>> sub) {
    List<AgentTurn> ts = new ArrayList<>(n);
    for (int t = 0; t < n; t++) {
      int i = (int) (stream + t); // wraps past 2 million agents: still a pure function of both
      double tool = t + 1 < n && toolMillis != null ? toolMillis.draw(draws ^ TOOL, i) : 0;
      AgentTurn.Input input = new AgentTurn.Input(t > 0, null, turnTokens.draw(draws ^ INPUT, i), null);
      ts.add(new AgentTurn(0, List.of(input), outputTokens.draw(draws ^ OUTPUT, i), tool, tool > 0 ? "tool" : ""));
    }
    return new AgentSession(id, 0, 0, opening, ts, sub);
  }

  @Override
  public int blockTokens() {
    return 64; // no hash ids: blocks of their own, each turn's text unique
  }

  @Override
  public String name() {
    return "agents(synthetic, turns=" + turns.spec() + ")";
  }

  @Override
  public String describe() {
    return "synthetic agents: turns " + turns.spec() + ", system prompt " + systemTokens + " tokens, turns of "
        + turnTokens.spec() + " tokens, max_tokens " + outputTokens.spec() + ", tool time " + (toolMillis == null ? "none"
        : toolMillis.spec() + " ms") + ", fan-out " + fanOut + " x " + width.spec() + " sub-agents of "
        + subAgentTurns.spec() + " turns";
  }

  @Override
  public double meanTurns() {
    return turns.mean();
  }

  @Override
  public double meanToolMillis() {
    return toolMillis == null ? 0 : toolMillis.mean();
  }
}
