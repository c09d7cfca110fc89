package dev.llmbench.agents;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.Markers;
import dev.llmbench.internal.load.RowSource;
import dev.llmbench.internal.load.SessionSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A level's agents as the runner's sessions ({@link SessionSource}): agent {@code i} is the trace's top-level session
 * {@code i} (wrapping round), its turns adding the trace's messages to the history the runner keeps with the live
 * replies, its gaps the trace's tool times (scaled), its sub-agents fanned out after their turn. A tool's result goes
 * as a {@code tool} message answering the reply's call by its live id, or, when the reply made none (no
 * {@code tools} sent: {@link AgentTrace#toolCalls()} off), as a user message marked as one. As {@link RowSource}, request
 * {@code i} is agent {@code i}'s first turn: what a warm-up sends.
 */
final class AgentWorkload implements RowSource, SessionSource {

  /** What an agents' level takes beside it: a duration or a target interval, never a count of requests (it counts agents). */
  static boolean takesBeside(dev.llmbench.internal.load.WorkloadSource.Beside beside) {
    return beside == dev.llmbench.internal.load.WorkloadSource.Beside.DURATION_OR_TARGET;
  }

  @Override
  public boolean takes(dev.llmbench.internal.load.WorkloadSource.Beside beside) {
    return takesBeside(beside);
  }

  @Override
  public Optional<String> instead(dev.llmbench.internal.load.AdviceSetting setting) {
    return setting.beside().filter(b -> b == dev.llmbench.internal.load.WorkloadSource.Beside.REQUEST_COUNT)
        .map(b -> "measure more agents: @AgentTrace(agents = N) or @SyntheticAgents(agents = N), or bound the level with "
            + "@Measurement(duration)");
  }

  /** What starts a tool's result, sent as a user message (see docs/agents.md, "Tool calls"). */
  static final String TOOL_RESULT = "[tool result] ";

  private final AgentPool pool;
  private final double toolTimeScale;
  private final int agents;
  private final int maxTokens;
  private final String affinityHeader; // null for none
  private final double timeScale; // the replay's: agents start at the trace's times divided by it; 0 for the load's
  private final boolean toolCalls; // @AgentTrace(toolCalls): tools sent, calls answered by tool messages
  private final AgentLedger ledger = new AgentLedger();
  private final List<AgentLedger.Run> running = new ArrayList<>(); // top-level runs of the current level, by index

  AgentWorkload(AgentPool pool, double toolTimeScale, int agents, int maxTokens, String affinityHeader) {
    this(pool, toolTimeScale, agents, maxTokens, affinityHeader, 0, false);
  }

  private AgentWorkload(AgentPool pool, double toolTimeScale, int agents, int maxTokens, String affinityHeader,
      double timeScale, boolean toolCalls) {
    this.toolCalls = toolCalls;
    this.pool = pool;
    this.toolTimeScale = toolTimeScale;
    this.agents = agents;
    this.maxTokens = maxTokens;
    this.affinityHeader = affinityHeader;
    this.timeScale = timeScale;
  }

  /**
   * The same agents started at the trace's times divided by {@code scale}, each once, in the order of their starts (a
   * replay's level): a ledger of their own.
   */
  AgentWorkload timed(double scale) {
    AgentTraceReader.Read trace = (AgentTraceReader.Read) pool; // synthetic agents are refused a replay when planned
    List<AgentSession> byStart = new ArrayList<>(trace.sessions());
    byStart.sort(java.util.Comparator.comparingDouble(AgentSession::startMillis)); // stable: the file's order on ties
    return new AgentWorkload(new AgentTraceReader.Read(trace.file(), byStart, pool.blockTokens()), toolTimeScale,
        byStart.size(), maxTokens, affinityHeader, scale, toolCalls);
  }

  /** The same agents, sending each calling turn's tool as a {@code tools} definition when {@code on}: a new ledger. */
  AgentWorkload withToolCalls(boolean on) {
    return new AgentWorkload(pool, toolTimeScale, agents, maxTokens, affinityHeader, timeScale, on);
  }

  /** The agents' mean arrival rate at time scale {@code scale}, per second: a replay's level reports it as its load. */
  double meanRate(double scale) {
    AgentTraceReader.Read trace = (AgentTraceReader.Read) pool;
    double first = trace.sessions().stream().mapToDouble(AgentSession::startMillis).min().orElse(0);
    double last = trace.sessions().stream().mapToDouble(AgentSession::startMillis).max().orElse(0);
    // Agents that all start at once: a span of 1 ms stands for it, as a trace's replay does.
    return trace.sessions().size() / (Math.max(last - first, 1) / scale / 1000.0);
  }

  /** What the sweep's table says of the prompts, e.g. {@code agents:trace.jsonl}. */
  String name() {
    return pool.name();
  }

  /** The agents for people: e.g. {@code 3 agents (5 sessions with sub-agents) of trace.jsonl, tool time x1}. */
  String describe() {
    return pool.describe() + ", tool time x" + dev.llmbench.internal.format.Formats.number(toolTimeScale)
        + (affinityHeader == null ? "" : ", session header " + affinityHeader);
  }

  /** Whether the agents come from a trace, with start times of their own. */
  boolean traced() {
    return pool instanceof AgentTraceReader.Read;
  }

  AgentLedger ledger() {
    return ledger;
  }

  /**
   * The agents a level of {@code load} sends: the declared count, else every top-level session of a trace once, or
   * synthetic ones as many as sessions send (2 per slot of a closed loop, 10 seconds of arrivals, at least 4).
   */
  int agentsPerLevel(dev.llmbench.result.LoadShape load) {
    if (agents > 0) return agents;
    if (pool instanceof AgentTraceReader.Read trace) return trace.sessions().size();
    return load.match(c -> Math.max(4, 2 * c.concurrency()), o -> Math.max(4, (int) Math.ceil(10 * o.rate().perSecond())));
  }

  /**
   * The agents a capacity probe of {@code inFlight} agents sends: the declared count, else 2 per slot (at least 4), and
   * a trace's every top-level session at least once (wrapping round past them), so that a short trace still fills
   * every slot of the probe.
   */
  int agentsPerProbe(int inFlight) {
    if (agents > 0) return agents;
    int perSlot = Math.max(4, 2 * inFlight);
    return pool instanceof AgentTraceReader.Read trace ? Math.max(trace.sessions().size(), perSlot) : perSlot;
  }

  /** The requests of agents {@code 0 .. count - 1}, their sub-agents' included: a whole level's. */
  int requestsOfFirst(int count) {
    long sum = 0;
    for (int i = 0; i < count; i++) sum += session(i).requests();
    return (int) Math.min(Integer.MAX_VALUE, sum);
  }

  private AgentSession session(int index) {
    return pool.agent(index);
  }

  private synchronized AgentLedger.Run run(int index) {
    return running.get(index);
  }

  @Override
  public synchronized int turns(int index) {
    // The runner asks once, as it starts the agent: the ledger's start of its run.
    AgentSession s = session(index);
    if (index == 0) running.clear();
    AgentLedger.Run run = ledger.started(index, s);
    while (running.size() <= index) running.add(null);
    running.set(index, run);
    return s.turns().size();
  }

  /** The agent's whole tree: the runner counts its sub-agents' turns with it as it starts, so a level starts whole agents. */
  @Override
  public OptionalInt requests(int index) {
    return OptionalInt.of(session(index).requests());
  }

  @Override
  public List<ChatMessage> opening(int index) {
    return session(index).opening();
  }

  @Override
  public List<ChatMessage> messages(int index, int turn) {
    return messages(index, turn, List.of());
  }

  @Override
  public List<ChatMessage> messages(int index, int turn, List<ChatMessage.ToolCall> calls) {
    AgentLedger.Run run = run(index);
    ledger.prepared(run, turn);
    return messages(run.session, turn, pool.blockTokens(), calls);
  }

  @Override
  public Map<String, String> bodyFields(int index, int turn) {
    return bodyFields(session(index), turn);
  }

  /** A calling turn's {@code tools} under {@code toolCalls}: its one tool, taking any object. */
  private Map<String, String> bodyFields(AgentSession s, int turn) {
    AgentTurn t = s.turns().get(turn);
    if (!toolCalls || !t.callsTool() || turn == s.turns().size() - 1) return Map.of();
    return Map.of("tools", tools(t.tool().isEmpty() ? "tool" : t.tool()));
  }

  /** One function's {@code tools} array, as JSON text. */
  static String tools(String name) {
    ArrayNode tools = JsonNodeFactory.instance.arrayNode();
    ObjectNode function = tools.addObject().put("type", "function").putObject("function").put("name", name);
    function.putObject("parameters").put("type", "object").putObject("properties");
    return tools.toString();
  }

  /** What turn {@code turn} of {@code s} adds to its history, no tool call to answer. */
  static List<ChatMessage> messages(AgentSession s, int turn, int blockTokens) {
    return messages(s, turn, blockTokens, List.of());
  }

  /**
   * What turn {@code turn} of {@code s} adds to its history. The reply before it made {@code calls}: its tool
   * results answer them in order as {@code tool} messages, first (a call beyond the results gets an empty one, so that
   * none is left unanswered); without calls, or beyond them, a result goes as user text marked as one.
   */
  static List<ChatMessage> messages(AgentSession s, int turn, int blockTokens, List<ChatMessage.ToolCall> calls) {
    List<AgentTurn.Input> inputs = s.turns().get(turn).inputs();
    List<ChatMessage> answers = new ArrayList<>(calls.size());
    List<ChatMessage> out = new ArrayList<>(inputs.size());
    for (int i = 0; i < inputs.size(); i++) {
      AgentTurn.Input in = inputs.get(i);
      String text = in.text() != null ? in.text() : BlockWords.text(in.tokens(), in.hashIds(), blockTokens,
          BlockWords.mix(s.id().hashCode() * 31L + s.line()) ^ ((long) turn << 20) ^ i);
      if (in.tool() && answers.size() < calls.size()) {
        answers.add(ChatMessage.tool(calls.get(answers.size()).id(), text));
      } else {
        out.add(ChatMessage.user(in.tool() ? TOOL_RESULT + text : text));
      }
    }
    if (answers.isEmpty()) return out; // no result to give: the runner keeps the reply's text alone
    for (int c = answers.size(); c < calls.size(); c++) answers.add(ChatMessage.tool(calls.get(c).id(), ""));
    answers.addAll(out);
    return answers;
  }

  @Override
  public OptionalInt maxTokens(int index, int turn) {
    int own = session(index).turns().get(turn).outputTokens();
    return own > 0 ? OptionalInt.of(own) : OptionalInt.empty();
  }

  @Override
  public long thinkNanos(int index, int turn) {
    return replied(ledger, run(index), turn, toolTimeScale);
  }

  private static long replied(AgentLedger ledger, AgentLedger.Run run, int turn, double scale) {
    long gap = Math.round(run.session.turns().get(turn).toolMillis() * scale * 1e6);
    ledger.replied(run, turn, gap);
    return gap;
  }

  @Override
  public Optional<FanOut> fanOut(int index, int turn) {
    return fanOut(run(index), turn);
  }

  private Optional<FanOut> fanOut(AgentLedger.Run parent, int turn) {
    List<AgentSession> spawned = parent.session.subAgents().get(turn);
    if (spawned == null || spawned.isEmpty()) return Optional.empty();
    return Optional.of(new FanOut(new SubAgents(parent, turn, spawned), spawned.size()));
  }

  @Override
  public Optional<String> affinityHeader() {
    return Optional.ofNullable(affinityHeader);
  }

  @Override
  public double meanTurns() {
    return pool.meanTurns();
  }

  @Override
  public double meanThinkNanos() {
    return pool.meanToolMillis() * toolTimeScale * 1e6;
  }

  /** Agent {@code index}'s first turn, alone: a warm-up's request. */
  @Override
  public CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace) {
    AgentSession s = session(index);
    List<ChatMessage> messages = new ArrayList<>(s.opening());
    List<ChatMessage> first = new ArrayList<>(messages(s, 0, pool.blockTokens()));
    if (namespace != 0) {
      ChatMessage m = first.get(0);
      first.set(0, m.withContent(Markers.marker(namespace, index) + " " + m.content()));
    }
    messages.addAll(first);
    int own = s.turns().get(0).outputTokens();
    CompletionRequest r = CompletionRequest.ofMessages(messages).withMaxTokens(own > 0 ? own : maxTokens).withIgnoreEos(ignoreEos);
    return temperature == null ? r : r.withTemperature(temperature);
  }

  /** Agents start as the load shape says (C in flight, or arriving at the rate), or in a replay at the trace's times. */
  @Override
  public Optional<dev.llmbench.internal.load.LoadRunner.Arrivals> arrivals() {
    if (timeScale <= 0) return Optional.empty();
    List<AgentSession> s = ((AgentTraceReader.Read) pool).sessions();
    double first = s.stream().mapToDouble(AgentSession::startMillis).min().orElse(0);
    return Optional.of(index -> index >= s.size() ? -1 : Math.round((s.get(index).startMillis() - first) / timeScale * 1e6));
  }

  @Override
  public Optional<SessionSource> sessions() {
    return Optional.of(this);
  }

  /** The sub-agents one turn's reply spawns: sub-conversation {@code c} is the {@code c}th of them. */
  private final class SubAgents implements SessionSource {
    private final AgentLedger.Run parent;
    private final int turn;
    private final List<AgentSession> spawned;
    private final AgentLedger.Run[] runs;

    SubAgents(AgentLedger.Run parent, int turn, List<AgentSession> spawned) {
      this.parent = parent;
      this.turn = turn;
      this.spawned = spawned;
      this.runs = new AgentLedger.Run[spawned.size()];
    }

    @Override
    public int turns(int c) {
      runs[c] = ledger.spawned(parent, turn, spawned.get(c));
      return spawned.get(c).turns().size();
    }

    @Override
    public OptionalInt requests(int c) {
      return OptionalInt.of(spawned.get(c).requests());
    }

    @Override
    public boolean forks(int c) {
      return spawned.get(c).fork();
    }

    @Override
    public List<ChatMessage> opening(int c) {
      return spawned.get(c).opening();
    }

    @Override
    public List<ChatMessage> messages(int c, int t) {
      return messages(c, t, List.of());
    }

    @Override
    public List<ChatMessage> messages(int c, int t, List<ChatMessage.ToolCall> calls) {
      ledger.prepared(runs[c], t);
      return AgentWorkload.messages(spawned.get(c), t, pool.blockTokens(), calls);
    }

    @Override
    public Map<String, String> bodyFields(int c, int t) {
      return AgentWorkload.this.bodyFields(spawned.get(c), t);
    }

    @Override
    public OptionalInt maxTokens(int c, int t) {
      int own = spawned.get(c).turns().get(t).outputTokens();
      return own > 0 ? OptionalInt.of(own) : OptionalInt.empty();
    }

    @Override
    public long thinkNanos(int c, int t) {
      return replied(ledger, runs[c], t, toolTimeScale);
    }

    @Override
    public Optional<FanOut> fanOut(int c, int t) {
      return AgentWorkload.this.fanOut(runs[c], t);
    }

    @Override
    public Optional<String> affinityHeader() {
      return Optional.ofNullable(affinityHeader);
    }

    @Override
    public double meanTurns() {
      return spawned.stream().mapToInt(s -> s.turns().size()).average().orElse(1);
    }

    @Override
    public double meanThinkNanos() {
      return 0;
    }
  }
}
