package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.TokenSource;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.DecodeRates;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.StopReason;
import dev.llmbench.result.WarmupReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/** What a reader should know about one level before trusting its figures: estimates, thin samples, mismatches. */
@API(status = INTERNAL)
public final class LevelWarnings {

  private LevelWarnings() {}

  /**
   * @param chunkTokenMismatches successful requests whose usage and chunk count differ by more than 10%
   * @param notes                warnings gathered while measuring, listed first
   * @param precision            the relative half-width of output throughput's interval the level aimed at, or the
   *                             default's (0.05)
   * @param aimed                whether the level went on to that precision (adaptive, or a count that goes on), and
   *                             stops at a cap only when it did not reach it
   */
  public static List<String> of(SweepLevelResult level, long chunkTokenMismatches, List<String> notes, double precision,
      boolean aimed) {
    List<String> w = new ArrayList<>(notes);
    if (chunkTokenMismatches > 0) {
      w.add(chunkTokenMismatches + " of " + level.succeeded() + " requests: the server's usage and the number of "
          + "streamed chunks differ by more than 10% (several tokens per chunk, e.g. speculative decoding or a reasoning "
          + "parser); token counts use the server's usage, and TPOT and output tok/s per user are affected (they count "
          + "one token in the first chunk unless the server reports usage per chunk)");
    }
    if (level.tokenSource() == TokenSource.CHUNK_COUNT_ESTIMATE || level.tokenSource() == TokenSource.MIXED) {
      w.add("the server sent no usage for some requests: their output tokens are estimated from chunk counts "
          + "(it may need stream_options.include_usage)");
    }
    Distribution e2e = level.e2eLatency();
    for (double p : level.percentiles()) {
      if (!e2e.isEmpty() && !e2e.supports(p)) {
        w.add(Formats.percentile(p) + " rests on " + e2e.count() + " requests and is only the maximum; it needs at least "
            + Distribution.samplesNeeded(p));
      }
    }
    level.tokenCrossCheck().filter(c -> !c.matches()).ifPresent(c -> w.add("server counters disagree with the client: " + c));
    level.decodeRates().filter(d -> !d.agree()).ifPresent(d -> w.add(String.format(Locale.ROOT,
        "decode rate: the client measured %.1f tok/s per request (1 / TPOT, median), the server's timings say %.1f "
            + "(predicted_per_second, median): they differ by more than %s", d.client(), d.server(),
        Formats.percent(DecodeRates.TOLERANCE))));
    level.warmup().ifPresent(warmup -> warmup(level, warmup, w));
    partialRound(level).ifPresent(w::add);
    tooFewForAGate(level, precision, aimed).ifPresent(w::add);
    steadyStateGap(level).ifPresent(w::add);
    ClientCheck.sharedMachine(level).ifPresent(w::add);
    if (level.stopReason() == StopReason.REFUSED) {
      w.add("the level stopped sending after " + level.requestCount() + " requests, its first " + level.concurrency()
          + " answers and every one since refused (" + level.errorsByType().keySet() + "): the key was refused, which "
          + "sending more does not change; check the variable llmbench.api-key-env names, and llmbench.headers");
    }
    return List.copyOf(w);
  }

  /** A warm-up that failed, or never had its target in flight, may have left a cold path to the level. */
  static void warmup(SweepLevelResult l, WarmupReport warmup, List<String> w) {
    if (warmup.failed() > 0) {
      w.add(warmup.failed() + " of " + warmup.requests() + " warm-up requests failed " + warmup.errorsByType()
          + ": the server may not have been warm when the level began");
    }
    if (warmup.target() > 0 && warmup.target() < l.concurrency()) {
      w.add("the warm-up sends " + warmup.requests() / warmup.rounds() + " requests, fewer than C=" + l.concurrency()
          + ": it cannot run a batch of " + l.concurrency() + " before the level; use @Warmup(requests = -1)");
    } else if (!warmup.reachedTarget() && warmup.failed() == 0) {
      w.add("the warm-up never had " + warmup.target() + " requests in flight together (at most " + warmup.peakInFlight()
          + " in " + warmup.rounds() + " rounds of max_tokens " + warmup.maxTokens() + "): a cold path for a batch of "
          + warmup.target() + " may land in the measurement; raise @Warmup(maxTokens)");
    }
  }

  /** A closed loop whose count is not a multiple of C ends with a round run at less than C. */
  public static Optional<String> partialRound(SweepLevelResult l) {
    if (!(l.load() instanceof LoadShape.ClosedLoop) || l.stopReason() != StopReason.REQUEST_COUNT) return Optional.empty();
    // A level that counts sessions or agents, not requests, has no rounds to make whole.
    if (l instanceof dev.llmbench.internal.load.AdviceTaker t && !t.accepts(dev.llmbench.internal.load.AdviceSetting.MEASUREMENT_ROUNDS)) {
      return Optional.empty();
    }
    long n = l.requestCount();
    int c = l.concurrency();
    if (n % c == 0) return Optional.empty();
    return Optional.of(String.format(Locale.ROOT, "%d requests at C=%d are %d whole round(s) and one of %d: "
        + "that last round ran with %d in flight, not %d, and reads low; use a multiple of C or @Measurement(rounds = N)",
        n, c, n / c, n % c, n % c, c));
  }

  /**
   * A level on a real server whose output throughput is known less precisely than the target, and a gate rests on it:
   * it went on to a precision and stopped at a cap short of it, or it has an SLO (its own gate, and a capacity search's
   * probe) and was bounded by a count or a duration. Such a gate may flip from one run to the next (on llama-server a
   * level of 10 requests moved 28% between two runs, docs/metrics.md). The requests it would take scale as the square
   * of the interval's width: n x (half-width / target)². The embedded engine is a simulator, not a server to gate on.
   */
  static Optional<String> tooFewForAGate(SweepLevelResult l, double target, boolean aimed) {
    if (l.endpoint().embedded().isPresent() || !Noise.known(l)) return Optional.empty();
    StopReason why = l.stopReason();
    boolean capped = aimed && (why == StopReason.REQUEST_CAP || why == StopReason.TIME_CAP);
    boolean gatedCount = !aimed && !l.serviceLevels().isEmpty() && (why == StopReason.REQUEST_COUNT || why == StopReason.DURATION);
    if (!capped && !gatedCount) return Optional.empty();
    double h = l.outputThroughputCi().relativeHalfWidth();
    if (h <= target) return Optional.empty();
    long n = l.requestCount();
    long needed = (long) Math.ceil(n * (h / target) * (h / target));
    String stopped = !capped ? "" : "; the level stopped at its " + (why == StopReason.REQUEST_CAP ? "request" : "time")
        + " cap before it got there";
    return Optional.of(String.format(Locale.ROOT, "output throughput is known only to %s (95%% interval over %d requests), "
        + "wider than %s%s: a gate on this level (its SLO, a capacity search, a baseline, an assertion) may flip between "
        + "runs; about %d requests would hold %s (@Measurement(requests = %d)%s)", pm(h), n, pm(target), stopped, needed,
        pm(target), needed, aimed ? ", or a longer maxDuration" : ", or a level of automatic size, which goes on until "
        + pm(target)));
  }

  private static String pm(double fraction) {
    return "±" + Formats.percent(fraction);
  }

  /** Ramp and drain moved the window's throughput away from the steady part's by more than the window's noise. */
  public static Optional<String> steadyStateGap(SweepLevelResult l) {
    return l.steadyState().filter(s -> l.succeeded() > 1 && Noise.differ(s.outputThroughput().perSecond(), 0,
        l.outputThroughput().perSecond(), Noise.throughput(l))).map(s -> String.format(Locale.ROOT,
        "ramp-up and drain took %s of the window (%s and %s): output throughput over the steady part, with all %d "
            + "in flight, is %.1f tok/s against %.1f tok/s over the whole window, more apart than the window's noise (±%s)",
        Formats.percent(s.rampAndDrainShare()), Formats.duration(s.ramp()), Formats.duration(s.drain()), s.inFlight(),
        s.outputThroughput().perSecond(), l.outputThroughput().perSecond(), Formats.percent(Noise.throughput(l))));
  }
}
