package dev.llmbench.trace;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
import dev.llmbench.Workload;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * {@code @Trace} as a sweep's input, read and checked whole before any load: each row once, a one-turn conversation
 * with the row's prompt and {@code max_tokens}, under a sweep's loads or, with {@code @TraceReplay}, at the trace's
 * own timestamps. Its blocks may be aligned to exact lengths; nothing else may make or shape its prompts.
 */
final class TraceInput implements WorkloadSource {

  private final PlanContext context;
  private MooncakeTrace trace;

  TraceInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public boolean replays() {
    return context.onMethod(TraceReplay.class).isPresent();
  }

  @Override
  public void check(List<WorkloadSource> all) {
    boolean closed = context.onMethod(ConcurrencySweep.class).isPresent();
    if (replays() && (closed || context.onMethod(RateSweep.class).isPresent())) {
      throw new IllegalArgumentException("a @TraceReplay sends at the trace's own timestamps, so it is not also a "
          + (closed ? "@ConcurrencySweep" : "@RateSweep") + "; to send the trace's rows under a concurrency or "
          + "a rate instead, keep @Trace and drop @TraceReplay");
    }
    Trace t = context.nearest(Trace.class).orElse(null);
    if (t == null) throw new IllegalArgumentException("@TraceReplay replays a trace: add @Trace(\"path/to/trace.jsonl\") beside it");
    Workload workload = context.workload();
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")) {
      throw new IllegalArgumentException("@Trace brings each request's prompt: drop @Workload's inputTokens, prompt and prompts");
    }
    if (workload.maxTokens().length > 1) {
      throw new IllegalArgumentException("@Trace sets each request's max_tokens from its output_length: give @Workload at "
          + "most one maxTokens (it is not used)");
    }
    if (t.blockSize() < 1) throw new IllegalArgumentException("@Trace 'blockSize' must be at least 1 token, was " + t.blockSize());
    trace = TraceSource.check(Path.of(t.value()), t.blockSize());
  }

  /** Its blocks aligned; a count of rows; a duration only when replayed at its own times (rows are sent once each). */
  @Override
  public boolean takes(Beside beside) {
    return beside == Beside.EXACT_INPUT_TOKENS || beside == Beside.REQUEST_COUNT
        || beside == Beside.DURATION_OR_TARGET && replays();
  }

  @Override
  public String refusal(Beside beside) {
    if (beside == Beside.DURATION_OR_TARGET) {
      return "under a concurrency or a rate a trace's rows are sent once each, so a level ends with the trace: bound it "
          + "with @Measurement(requests = N) for the first N rows, not by duration or target interval (@TraceReplay "
          + "levels may be bounded by duration)";
    }
    return "@Trace brings each request's prompt and max_tokens: remove @Dataset, @SharedPrefix and @Workload's "
        + "inputLength and outputLength from this sweep (@ExactInputTokens beside it aligns its blocks)";
  }

  @Override
  public PromptSource prompts() {
    return TraceSource.rows(trace);
  }

  /** One level per time scale, each an open loop at the trace's timestamps; its rate is the trace's mean at that scale. */
  @Override
  public Replay replay() {
    TraceReplay replay = context.onMethod(TraceReplay.class).orElseThrow();
    if (replay.timeScale().length == 0) {
      throw new IllegalArgumentException("@TraceReplay must list at least one time scale, e.g. @TraceReplay(timeScale = {1, 10})");
    }
    if (replay.maxConcurrency() < 0) {
      throw new IllegalArgumentException("'maxConcurrency' must be 0 (no cap) or positive, was " + replay.maxConcurrency());
    }
    OptionalInt cap = replay.maxConcurrency() == 0 ? OptionalInt.empty() : OptionalInt.of(replay.maxConcurrency());
    Set<Double> seen = new HashSet<>();
    List<Replay.Level> levels = new ArrayList<>();
    for (double s : replay.timeScale()) {
      if (!(s > 0) || Double.isInfinite(s)) {
        throw new IllegalArgumentException("every time scale must be a positive number (10 replays ten times faster), but "
            + Arrays.toString(replay.timeScale()) + " has " + Formats.number(s));
      }
      if (!seen.add(s)) throw new IllegalArgumentException("time scale " + Formats.number(s) + " is listed twice");
      levels.add(new Replay.Level(new LoadShape.OpenLoop(Rate.requestsPerSecond(TraceSource.meanRate(trace, s)), 1, cap),
          Formats.number(s), TraceSource.timed(trace, s), trace.rows()));
    }
    return new Replay(replay.name(), TraceReplay.DEFAULT_NAME, TraceReplay.TIME_SCALE_PLACEHOLDER, levels);
  }

  @Override
  public int requests(LoadShape load, int otherwise) {
    return trace.rows();
  }

  @Override
  public void checkLevel(String label, LoadShape load, StopRule stop) {
    if (stop instanceof StopRule.Count c && c.requests() > trace.rows()) {
      throw new IllegalArgumentException(label + " would send " + c.requests() + " requests, but the trace "
          + trace.file() + " has " + trace.rows() + " rows and each is sent once: ask for at most "
          + trace.rows() + " (or leave @Measurement(requests) automatic for all of them)");
    }
  }

  /** Each row sets its own; a level reports the largest. */
  @Override
  public OptionalInt maxTokens() {
    return OptionalInt.of(trace.maxOutput());
  }
}
