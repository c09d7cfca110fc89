package dev.llmbench.agents;

import dev.llmbench.internal.client.RequestTrace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A level's agents as they ran: each run of the ledger paired with the traces of its turns, and what each agent
 * (with its sub-agents) took. The traces do not name their session, so they are paired by time: the runner makes a
 * turn ready and hands it to the transport on its one thread, nothing in between, so a turn's trace is the first to
 * start after the ledger saw it made ready; an agent's first turn may be made ahead of its time, so those go in
 * order instead, as the level starts its agents 0, 1, 2, ...
 */
final class AgentRuns {

  /**
   * One agent (or sub-agent) as it ran.
   *
   * @param wallNanos      from its first turn's start to its last turn's end (sub-agents between them included)
   * @param modelNanos     its own turns' time in the server, start to last token
   * @param toolNanos      the tool time it waited after its turns
   * @param subAgentNanos  how much longer than its tool time it waited for its sub-agents
   * @param turns          its turns sent
   * @param requests       its turns and its sub-agents' sent
   * @param subAgents      its sub-agents that started, nested ones included
   * @param complete       whether every turn of it and of its sub-agents was sent and answered
   * @param promptTokens   its turns' prompt tokens, sub-agents' included
   * @param outputTokens   its turns' output tokens, sub-agents' included
   * @param path           the chain of turns, tool gaps and sub-agents' turns that set its wall time
   */
  record Agent(long wallNanos, long modelNanos, long toolNanos, long subAgentNanos, int turns, int requests, int subAgents,
      boolean complete, long promptTokens, long outputTokens, CriticalPath path) {}

  /** What a stretch of a critical path is. */
  enum Stretch {
    /** A turn in the server, send to last token. */
    MODEL,
    /** A tool's run after a reply: the trace's tool time, as long as the next turn waited for it. */
    TOOL,
    /** Neither: a sub-agent starting after its parent's reply, the parent's next turn going after the join or its gap. */
    OTHER
  }

  /**
   * The critical path of one agent: from its first turn's start to its last turn's end, the chain that set its wall time.
   * After a turn that fans out, the path goes through the sub-agent that ended last, when it ended after the parent's
   * own tool time (the parent's next turn waited for it), else through the parent's tool gap; inside a sub-agent it
   * goes the same way, nested ones included. Each stretch is {@code {start, end, row, kind}}: its times
   * ({@link System#nanoTime()}), the lane's row it lies on (0 the agent's own, 1, 2, ... its sub-agents' in the lane's
   * order) and its {@link Stretch} ordinal.
   *
   * @param nanos          its length: the agent's wall time when every turn of the chain was answered
   * @param modelNanos     the turns' time in the server along it (sub-agents' on it included)
   * @param toolNanos      the tool time along it
   * @param subAgentNanos  the part of it that runs through sub-agents (their turns, tools and waits)
   * @param stretches      its stretches in time order, each {@code {start, end, row, kind}}
   */
  record CriticalPath(long nanos, long modelNanos, long toolNanos, long subAgentNanos, List<long[]> stretches) {
    static final CriticalPath NONE = new CriticalPath(0, 0, 0, 0, List.of());

    CriticalPath {
      stretches = List.copyOf(stretches);
    }

    /** What is neither model nor tool time: spawning, joining, the runner's lateness. */
    long otherNanos() {
      return Math.max(0, nanos - modelNanos - toolNanos);
    }
  }

  /**
   * A level's agents paired with their requests.
   *
   * @param agents    the top-level agents that sent their first turn, in the order the level started them
   * @param agentTurns those agents' own turns (their sub-agents' apart), each knowing its index ({@code turn()})
   */
  record Level(List<Agent> agents, List<RequestTrace> agentTurns, List<Lane> lanes) {
    Level {
      agents = List.copyOf(agents);
      agentTurns = List.copyOf(agentTurns);
      lanes = List.copyOf(lanes);
    }
  }

  /**
   * One agent's time line: its own turns and each sub-agent's (nested ones after their parent), each turn its request's
   * start and end ({@link System#nanoTime()}).
   */
  record Lane(List<long[]> turns, List<List<long[]>> subAgents, CriticalPath path) {
    Lane(List<long[]> turns, List<List<long[]>> subAgents) {
      this(turns, subAgents, CriticalPath.NONE);
    }
  }

  private AgentRuns() {}

  /** The top-level agents of {@code generation} that sent their first turn, paired with {@code traces}. */
  static Level of(AgentLedger.Generation generation, List<RequestTrace> traces) {
    RequestTrace[] byStart = traces.toArray(RequestTrace[]::new);
    Arrays.sort(byStart, Comparator.comparingLong(RequestTrace::startNanos));
    long[] starts = Arrays.stream(byStart).mapToLong(RequestTrace::startNanos).toArray();
    boolean[] taken = new boolean[byStart.length];
    java.util.Map<AgentLedger.Run, RequestTrace[]> paired = new java.util.IdentityHashMap<>();
    for (AgentLedger.Run run : generation.all) {
      RequestTrace[] own = new RequestTrace[run.preparedNanos.length];
      paired.put(run, own);
      for (int t = run.top() ? 1 : 0; t < own.length; t++) {
        long made = run.preparedNanos[t];
        if (made == 0) continue;
        int i = firstAtOrAfter(starts, made);
        while (i < starts.length && taken[i]) i++;
        if (i < starts.length && byStart[i].turn() == t) {
          taken[i] = true;
          own[t] = byStart[i];
        }
      }
    }
    int next = 0;
    for (AgentLedger.Run run : generation.agents) {
      while (next < byStart.length && (taken[next] || byStart[next].turn() != 0)) next++;
      if (next == byStart.length) break;
      if (run == null) continue;
      paired.get(run)[0] = byStart[next];
      taken[next] = true;
    }
    List<Agent> out = new ArrayList<>();
    List<RequestTrace> turns = new ArrayList<>();
    List<Lane> lanes = new ArrayList<>();
    for (AgentLedger.Run run : generation.agents) {
      if (run == null || paired.get(run)[0] == null) continue;
      out.add(agent(run, paired));
      for (RequestTrace t : paired.get(run)) if (t != null) turns.add(t);
      List<List<long[]>> sub = new ArrayList<>();
      subAgents(run, paired, sub);
      lanes.add(new Lane(times(paired.get(run)), sub, out.get(out.size() - 1).path()));
    }
    return new Level(out, turns, lanes);
  }

  private static void subAgents(AgentLedger.Run run, java.util.Map<AgentLedger.Run, RequestTrace[]> paired,
      List<List<long[]>> out) {
    for (AgentLedger.Run child : run.children) {
      out.add(times(paired.get(child)));
      subAgents(child, paired, out);
    }
  }

  private static List<long[]> times(RequestTrace[] own) {
    List<long[]> out = new ArrayList<>();
    for (RequestTrace t : own) if (t != null) out.add(new long[] {t.startNanos(), t.endNanos()});
    return out;
  }

  private static Agent agent(AgentLedger.Run run, java.util.Map<AgentLedger.Run, RequestTrace[]> paired) {
    RequestTrace[] own = paired.get(run);
    long model = 0;
    long tool = 0;
    long waited = 0;
    int turns = 0;
    int subAgents = 0;
    int requests = 0;
    long prompt = 0;
    long output = 0;
    boolean complete = true;
    for (int t = 0; t < own.length; t++) {
      RequestTrace r = own[t];
      if (r == null) {
        complete = false;
        continue;
      }
      turns++;
      model += r.endNanos() - r.startNanos();
      if (!r.succeeded()) complete = false;
      prompt += tokens(r, true);
      output += tokens(r, false);
      if (t + 1 < own.length && own[t + 1] != null) {
        long idle = own[t + 1].startNanos() - r.endNanos();
        long gap = Math.min(run.gapNanos[t], Math.max(0, idle));
        tool += gap;
        if (!run.session.subAgents().getOrDefault(t, List.of()).isEmpty()) waited += Math.max(0, idle - gap);
      }
    }
    for (AgentLedger.Run child : run.children) {
      Agent c = agent(child, paired);
      subAgents += 1 + c.subAgents();
      requests += c.requests();
      complete &= c.complete();
      prompt += c.promptTokens();
      output += c.outputTokens();
    }
    if (run.children.size() < run.session.subAgents().values().stream().mapToInt(List::size).sum()) complete = false;
    RequestTrace first = own[0];
    RequestTrace last = null;
    for (RequestTrace r : own) if (r != null) last = r;
    long wall = first == null || last == null ? 0 : last.endNanos() - first.startNanos();
    CriticalPath path = run.top() ? criticalPath(run, paired) : CriticalPath.NONE;
    return new Agent(wall, model, tool, waited, turns, turns + requests, subAgents, complete, prompt, output, path);
  }

  /** The critical path of top-level {@code run}: see {@link CriticalPath}. */
  static CriticalPath criticalPath(AgentLedger.Run run, java.util.Map<AgentLedger.Run, RequestTrace[]> paired) {
    java.util.Map<AgentLedger.Run, Integer> rows = new java.util.IdentityHashMap<>();
    rows.put(run, 0);
    rowsOf(run, rows);
    List<long[]> stretches = new ArrayList<>();
    walk(run, paired, rows, stretches);
    long model = 0;
    long tool = 0;
    long sub = 0;
    long length = 0;
    for (long[] s : stretches) {
      long d = s[1] - s[0];
      length += d;
      if (s[3] == Stretch.MODEL.ordinal()) model += d;
      if (s[3] == Stretch.TOOL.ordinal()) tool += d;
      if (s[2] > 0) sub += d;
    }
    return new CriticalPath(length, model, tool, sub, stretches);
  }

  /** Numbers the sub-agents' rows as the lane draws them: each after its parent, its own sub-agents after it. */
  private static void rowsOf(AgentLedger.Run run, java.util.Map<AgentLedger.Run, Integer> rows) {
    for (AgentLedger.Run child : run.children) {
      rows.put(child, rows.size());
      rowsOf(child, rows);
    }
  }

  /** Adds {@code run}'s stretches of the path, from its first turn's start to its last answered turn's end. */
  private static void walk(AgentLedger.Run run, java.util.Map<AgentLedger.Run, RequestTrace[]> paired,
      java.util.Map<AgentLedger.Run, Integer> rows, List<long[]> out) {
    RequestTrace[] own = paired.get(run);
    int row = rows.get(run);
    for (int t = 0; t < own.length && own[t] != null; t++) {
      RequestTrace r = own[t];
      stretch(out, r.startNanos(), r.endNanos(), row, Stretch.MODEL);
      if (t + 1 == own.length || own[t + 1] == null) return; // the path ends where its record does
      long next = own[t + 1].startNanos();
      long toolEnds = Math.min(next, r.endNanos() + run.gapNanos[t]);
      AgentLedger.Run slowest = null;
      long slowestEnds = Long.MIN_VALUE;
      for (AgentLedger.Run child : run.children) {
        if (child.spawnedAfter != t) continue;
        RequestTrace[] c = paired.get(child);
        if (c == null || c.length == 0 || c[0] == null) continue;
        long ends = lastEnd(c);
        if (slowest == null || ends - slowestEnds > 0) {
          slowest = child;
          slowestEnds = ends;
        }
      }
      if (slowest != null && slowestEnds - toolEnds > 0) { // the next turn waited for this sub-agent, not the tool
        stretch(out, r.endNanos(), paired.get(slowest)[0].startNanos(), row, Stretch.OTHER);
        walk(slowest, paired, rows, out);
        stretch(out, slowestEnds, next, row, Stretch.OTHER);
      } else {
        stretch(out, r.endNanos(), toolEnds, row, Stretch.TOOL);
        stretch(out, toolEnds, next, row, Stretch.OTHER);
      }
    }
  }

  private static long lastEnd(RequestTrace[] own) {
    long end = Long.MIN_VALUE;
    for (RequestTrace r : own) if (r != null) end = r.endNanos();
    return end;
  }

  private static void stretch(List<long[]> out, long from, long to, int row, Stretch kind) {
    if (to - from > 0) out.add(new long[] {from, to, row, kind.ordinal()});
  }

  /** The server's count of the prompt's or the reply's tokens, 0 when it gave none. */
  private static long tokens(RequestTrace r, boolean prompt) {
    if (r.usage() == null) return 0;
    Integer n = prompt ? r.usage().promptTokens() : r.usage().completionTokens();
    return n == null ? 0 : Math.max(0, n);
  }

  private static int firstAtOrAfter(long[] sorted, long value) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] - value < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
