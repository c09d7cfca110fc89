package dev.llmbench.agents;

import dev.llmbench.Workload;
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
  public void check(List<WorkloadSource> all) {
    agents = of(context.nearest(AgentTrace.class).orElseThrow(), context.workload());
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
