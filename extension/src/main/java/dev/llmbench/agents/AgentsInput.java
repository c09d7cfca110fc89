package dev.llmbench.agents;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
import dev.llmbench.Workload;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.workload.LengthDistribution;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * {@code @AgentTrace} or {@code @SyntheticAgents} as a sweep's input (with {@code @AgentReplay}, a replay's): whole
 * agents, each turn resending its history with the server's replies.
 * They make every turn's prompt, so they take nothing else that makes or shapes prompts, and a level sends whole
 * agents, so it is not counted in requests. The trace is read and checked whole here, before any load.
 */
final class AgentsInput implements WorkloadSource {

  private final PlanContext context;
  private AgentWorkload agents;

  AgentsInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public boolean replays() {
    return context.onMethod(AgentReplay.class).isPresent();
  }

  @Override
  public void check(List<WorkloadSource> all) {
    boolean closed = context.onMethod(ConcurrencySweep.class).isPresent();
    if (replays() && (closed || context.onMethod(RateSweep.class).isPresent())) {
      throw new IllegalArgumentException("an @AgentReplay starts the agents at the trace's own times, so it is not also a "
          + (closed ? "@ConcurrencySweep" : "@RateSweep") + "; to run the agents under a concurrency or a rate instead, "
          + "keep @AgentTrace and drop @AgentReplay");
    }
    Optional<AgentTrace> trace = context.nearest(AgentTrace.class);
    Optional<SyntheticAgents> synthetic = context.nearest(SyntheticAgents.class);
    if (trace.isPresent() && synthetic.isPresent()) {
      throw new IllegalArgumentException("@AgentTrace and @SyntheticAgents each bring the agents: keep one of them");
    }
    if (replays() && trace.isEmpty()) {
      throw new IllegalArgumentException("@AgentReplay replays an agent trace's start times: add @AgentTrace(\"path/to/"
          + "agents.jsonl\") beside it" + (synthetic.isPresent() ? " (synthetic agents have none: run them under a "
          + "@ConcurrencySweep or a @RateSweep)" : ""));
    }
    agents = trace.isPresent() ? of(trace.get(), context.workload()) : synthetic(synthetic.orElseThrow(), context.workload());
    if (replays() && trace.get().agents() > 0) {
      throw new IllegalArgumentException("an @AgentReplay starts every agent of the trace once, at its time: remove "
          + "@AgentTrace(agents = " + trace.get().agents() + ")");
    }
  }

  /** The synthetic agents {@code a} declares, every distribution checked. */
  static AgentWorkload synthetic(SyntheticAgents a, Workload workload) {
    checkWorkload(workload, "@SyntheticAgents");
    if (a.agents() < 0) throw new IllegalArgumentException("@SyntheticAgents 'agents' must be 0 (automatic) or positive, "
        + "was " + a.agents());
    if (a.systemTokens() < 0) throw new IllegalArgumentException("@SyntheticAgents 'systemTokens' must be 0 (none) or "
        + "positive, was " + a.systemTokens());
    if (!(a.fanOut() >= 0 && a.fanOut() <= 1)) throw new IllegalArgumentException("@SyntheticAgents 'fanOut' is the "
        + "chance that a turn fans out sub-agents, from 0 to 1, was " + a.fanOut());
    String tool = a.toolTimeMillis().strip();
    SyntheticAgentPool pool = new SyntheticAgentPool(distribution(a.turns(), "turns"), a.systemTokens(),
        distribution(a.turnTokens(), "turnTokens"), distribution(a.outputTokens(), "outputTokens"),
        tool.isEmpty() || tool.equals("0") ? null : distribution(tool, "toolTimeMillis"), a.fanOut(),
        distribution(a.fanOutWidth(), "fanOutWidth"), distribution(a.subAgentTurns(), "subAgentTurns"), a.seed());
    return new AgentWorkload(pool, 1, a.agents(), workload.maxTokens()[0], header(a.affinityHeader(), "@SyntheticAgents"));
  }

  private static LengthDistribution distribution(String text, String attribute) {
    try {
      return LengthDistribution.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@SyntheticAgents '" + attribute + "': " + e.getMessage(), e);
    }
  }

  private static void checkWorkload(Workload workload, String annotation) {
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")
        || !workload.inputLength().isBlank() || !workload.outputLength().isBlank() || workload.maxTokens().length > 1) {
      throw new IllegalArgumentException(annotation + " makes each turn's prompt: remove @Workload's inputTokens, prompt, "
          + "prompts, inputLength and outputLength and give it one maxTokens (of the turns without their own)");
    }
  }

  /** The affinity header, checked; null for none. */
  private static String header(String text, String annotation) {
    String header = text.strip();
    if (!header.isEmpty() && !header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
      throw new IllegalArgumentException(annotation + " 'affinityHeader' \"" + text + "\" is not an HTTP header name; use "
          + "letters, digits and dashes, e.g. X-Session-ID");
    }
    return header.isEmpty() ? null : header;
  }

  /** One level per time scale, each an open loop at the agents' start times; its rate is their mean at that scale. */
  @Override
  public Replay replay() {
    AgentReplay replay = context.onMethod(AgentReplay.class).orElseThrow();
    if (replay.timeScale().length == 0) {
      throw new IllegalArgumentException("@AgentReplay must list at least one time scale, e.g. @AgentReplay(timeScale = {1, 10})");
    }
    if (replay.maxConcurrency() < 0) {
      throw new IllegalArgumentException("@AgentReplay 'maxConcurrency' must be 0 (no cap) or positive, was "
          + replay.maxConcurrency());
    }
    OptionalInt cap = replay.maxConcurrency() == 0 ? OptionalInt.empty() : OptionalInt.of(replay.maxConcurrency());
    Set<Double> seen = new HashSet<>();
    List<Replay.Level> levels = new ArrayList<>();
    for (double s : replay.timeScale()) {
      if (!(s > 0) || Double.isInfinite(s)) {
        throw new IllegalArgumentException("@AgentReplay: every time scale must be a positive number (10 starts the "
            + "agents ten times sooner), but " + Arrays.toString(replay.timeScale()) + " has " + Formats.number(s));
      }
      if (!seen.add(s)) throw new IllegalArgumentException("@AgentReplay: time scale " + Formats.number(s) + " is listed twice");
      AgentWorkload timed = agents.timed(s);
      LoadShape load = new LoadShape.OpenLoop(Rate.requestsPerSecond(agents.meanRate(s)), 1, cap);
      levels.add(new Replay.Level(load, Formats.number(s), PromptSource.rows(timed.name(), timed),
          timed.requestsOfFirst(timed.agentsPerLevel(load))));
    }
    return new Replay(replay.name(), AgentReplay.DEFAULT_NAME, AgentReplay.TIME_SCALE_PLACEHOLDER, levels);
  }

  /** The agents {@code a} declares, its file read and checked whole. */
  static AgentWorkload of(AgentTrace a, Workload workload) {
    checkWorkload(workload, "@AgentTrace");
    if (!(a.toolTimeScale() >= 0) || Double.isInfinite(a.toolTimeScale())) {
      throw new IllegalArgumentException("@AgentTrace 'toolTimeScale' must be 0 or more (1 as recorded, 0 for no tool "
          + "time), was " + a.toolTimeScale());
    }
    if (a.blockTokens() < 0) throw new IllegalArgumentException("@AgentTrace 'blockTokens' must be 0 (the format's) or "
        + "positive, was " + a.blockTokens());
    if (a.agents() < 0) throw new IllegalArgumentException("@AgentTrace 'agents' must be 0 (every agent of the trace "
        + "once) or positive, was " + a.agents());
    String header = header(a.affinityHeader(), "@AgentTrace");
    AgentTraceReader.Read read;
    try {
      read = AgentTraceReader.read(Path.of(a.value()), a.format(), a.blockTokens());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("@AgentTrace(format = " + a.format() + "): " + e.getMessage(), e);
    }
    return new AgentWorkload(read, a.toolTimeScale(), a.agents(), workload.maxTokens()[0], header)
        .withToolCalls(a.toolCalls());
  }

  @Override
  public boolean takes(Beside beside) {
    return AgentWorkload.takesBeside(beside); // the levels' agents say the same when a finding advises them
  }

  @Override
  public String refusal(Beside beside) {
    if (beside == Beside.REQUEST_COUNT) {
      return "an agents' level sends whole agents: count them with @AgentTrace(agents = N) or @SyntheticAgents(agents = N) instead of @Measurement's "
          + "requests or rounds (or llmbench.sweep.requests / rounds), or bound the level with @Measurement(duration)";
    }
    return "@AgentTrace and @SyntheticAgents make each turn's prompt: remove @Sessions, @Trace, @Dataset, @SharedPrefix, @ExactInputTokens, "
        + "@QualityEval and the input and output length settings from this sweep";
  }

  @Override
  public PromptSource prompts() {
    return PromptSource.rows(agents.name(), agents);
  }

  /** Whole agents: a level sends their turns and their sub-agents'. */
  @Override
  public int requests(LoadShape load, int otherwise) {
    return agents.requestsOfFirst(agents.agentsPerLevel(load));
  }
}
