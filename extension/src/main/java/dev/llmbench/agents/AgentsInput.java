package dev.llmbench.agents;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
import dev.llmbench.Workload;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Rate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.OptionalInt;
import java.util.Set;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.result.LoadShape;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code @AgentTrace} as a sweep's input: whole agents, each turn resending its history with the server's replies.
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
    AgentTrace trace = context.nearest(AgentTrace.class).orElseThrow(() -> new IllegalArgumentException("@AgentReplay "
        + "replays an agent trace: add @AgentTrace(\"path/to/agents.jsonl\") beside it"));
    agents = of(trace, context.workload());
    if (replays() && trace.agents() > 0) {
      throw new IllegalArgumentException("an @AgentReplay starts every agent of the trace once, at its time: remove "
          + "@AgentTrace(agents = " + trace.agents() + ")");
    }
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
      levels.add(new Replay.Level(new LoadShape.OpenLoop(Rate.requestsPerSecond(agents.meanRate(s)), 1, cap),
          Formats.number(s), PromptSource.rows(timed.name(), timed), timed.requestsOfFirst(timed.agentsPerLevel())));
    }
    return new Replay(replay.name(), AgentReplay.DEFAULT_NAME, AgentReplay.TIME_SCALE_PLACEHOLDER, levels);
  }

  /** The agents {@code a} declares, its file read and checked whole. */
  static AgentWorkload of(AgentTrace a, Workload workload) {
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")
        || !workload.inputLength().isBlank() || !workload.outputLength().isBlank() || workload.maxTokens().length > 1) {
      throw new IllegalArgumentException("@AgentTrace makes each turn's prompt: remove @Workload's inputTokens, prompt, "
          + "prompts, inputLength and outputLength and give it one maxTokens (of the turns without output_tokens)");
    }
    if (!(a.toolTimeScale() >= 0) || Double.isInfinite(a.toolTimeScale())) {
      throw new IllegalArgumentException("@AgentTrace 'toolTimeScale' must be 0 or more (1 as recorded, 0 for no tool "
          + "time), was " + a.toolTimeScale());
    }
    if (a.blockTokens() < 0) throw new IllegalArgumentException("@AgentTrace 'blockTokens' must be 0 (the format's) or "
        + "positive, was " + a.blockTokens());
    if (a.agents() < 0) throw new IllegalArgumentException("@AgentTrace 'agents' must be 0 (every agent of the trace "
        + "once) or positive, was " + a.agents());
    String header = a.affinityHeader().strip();
    if (!header.isEmpty() && !header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
      throw new IllegalArgumentException("@AgentTrace 'affinityHeader' \"" + a.affinityHeader() + "\" is not an HTTP "
          + "header name; use letters, digits and dashes, e.g. X-Session-ID");
    }
    AgentTraceReader.Read read;
    try {
      read = AgentTraceReader.read(Path.of(a.value()), a.format(), a.blockTokens());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("@AgentTrace(format = " + a.format() + "): " + e.getMessage(), e);
    }
    return new AgentWorkload(read, a.toolTimeScale(), a.agents(), workload.maxTokens()[0], header.isEmpty() ? null : header);
  }

  @Override
  public boolean takes(Beside beside) {
    return beside == Beside.DURATION_OR_TARGET;
  }

  @Override
  public String refusal(Beside beside) {
    if (beside == Beside.REQUEST_COUNT) {
      return "an @AgentTrace level sends whole agents: count them with @AgentTrace(agents = N) instead of @Measurement's "
          + "requests or rounds (or llmbench.sweep.requests / rounds), or bound the level with @Measurement(duration)";
    }
    return "@AgentTrace makes each turn's prompt: remove @Sessions, @Trace, @Dataset, @SharedPrefix, @ExactInputTokens, "
        + "@QualityEval and the input and output length settings from this sweep";
  }

  @Override
  public PromptSource prompts() {
    return PromptSource.rows(agents.name(), agents);
  }

  /** Whole agents: a level sends their turns and their sub-agents'. */
  @Override
  public int requests(LoadShape load, int otherwise) {
    return agents.requestsOfFirst(agents.agentsPerLevel());
  }
}
