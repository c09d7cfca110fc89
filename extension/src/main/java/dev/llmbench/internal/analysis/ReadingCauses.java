package dev.llmbench.internal.analysis;

import dev.llmbench.ClientLoad;
import dev.llmbench.Measurement;
import dev.llmbench.PrefixCacheUse;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.WarmupReport;
import dev.llmbench.internal.format.Formats;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Causes that make one level's reading, rather than the server, odd: a cold start, too few or partial
 * rounds, ramp-up and drain, a client that could not keep up, prompts served from the prefix cache.
 */
final class ReadingCauses {

  static final String WARM_UP_STEP = "warm up with the level's own batch: @Warmup(requests = -1, maxTokens = -1), the default";
  static final String ROUNDS_STEP = "measure more whole rounds: @Measurement(rounds = 10)";
  static final String CLIENT_STEP = "give the client a machine (or cores) of its own, or fewer streams per client JVM";

  private ReadingCauses() {}

  /** Whether the level's start was cold, by its first round and by what its warm-up did. */
  static FindingBuilder.Causes cold(SweepLevelResult l) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    Optional<FirstRound> outlier = FirstRound.outlier(l);
    Optional<WarmupReport> warmup = l.warmup();
    String who = l.label();
    if (l.requests().isEmpty() && warmup.isEmpty()) {
      c.possible("a cold start at " + who, "a summary says neither whether " + who + " was warmed up nor how its first "
          + "round compared with the rest", WARM_UP_STEP);
    } else if (outlier.isPresent()) {
      FirstRound o = outlier.get();
      c.likely("a cold start at " + who, "its first round's " + o.metric().label() + " median is "
          + Formats.duration(o.firstMedian()) + ", above most of its second half (median " + Formats.duration(o.laterMedian())
          + ", max " + Formats.duration(o.laterMax()) + ")" + warmupSays(l), WARM_UP_STEP);
    } else if (warmup.isEmpty()) {
      c.possible("a cold start at " + who, who + " had no warm-up, so any cold path of a batch of " + l.concurrency()
          + " ran in its measurement (its first round is not an outlier, though)", WARM_UP_STEP);
    } else if (warmup.get().failed() > 0 || !warmup.get().reachedTarget()) {
      c.likely("a cold start at " + who, warmupSays(l).substring(2), WARM_UP_STEP);
    } else if (Figures.closed(l)) {
      c.ruledOut("a cold start at " + who, "its warm-up had " + warmup.get().peakInFlight() + " in flight with no failure, "
          + "and its first round is no outlier");
    }
    return c;
  }

  private static String warmupSays(SweepLevelResult l) {
    Optional<WarmupReport> w = l.warmup();
    if (w.isEmpty()) return "; it had no warm-up";
    if (w.get().failed() > 0) return "; " + w.get().failed() + " of its " + w.get().requests() + " warm-up requests failed";
    if (!w.get().reachedTarget()) {
      return "; its warm-up never had " + w.get().target() + " in flight together (at most " + w.get().peakInFlight() + ")";
    }
    if (w.get().maxTokens() < l.maxTokens()) {
      return "; its warm-up's requests were shorter (max_tokens " + w.get().maxTokens() + ") than the level's ("
          + l.maxTokens() + ")";
    }
    return "; its warm-up ran a batch of " + w.get().peakInFlight() + ", so the cold path is one it did not reach";
  }

  /** Whether the level measured too little to read one figure: partial or few rounds, ramp and drain, wide noise. */
  static FindingBuilder.Causes sampleSize(SweepLevelResult l, double differenceInNoises) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    String who = "too few requests at " + l.label();
    Optional<String> partial = LevelWarnings.partialRound(l);
    Optional<String> gap = LevelWarnings.steadyStateGap(l);
    double noise = Noise.throughput(l);
    if (partial.isPresent()) {
      c.likely(who, partial.get(), ROUNDS_STEP);
    } else if (gap.isPresent()) {
      c.likely(who, gap.get(), ROUNDS_STEP);
    } else if (Figures.closed(l) && Figures.rounds(l) < Measurement.MIN_ROUNDS) {
      c.likely(who, "it ran " + Figures.rounds(l) + " round(s) of " + l.concurrency() + ": ramp-up and drain are a large "
          + "part of so short a window", ROUNDS_STEP);
    } else if (!Noise.known(l)) {
      c.possible(who, "the table gives no per-request data, so its noise is unknown (±" + Formats.percent(noise)
          + " assumed)", ROUNDS_STEP);
    } else if (l.requestCount() < 20 || noise > 0.05) {
      c.possible(who, String.format(Locale.ROOT, "%d requests, throughput noise ±%s: a few slow requests move its figure",
          l.requestCount(), Formats.percent(noise)), ROUNDS_STEP);
    } else {
      c.ruledOut(who, String.format(Locale.ROOT, "%d requests, noise ±%s%s", l.requestCount(), Formats.percent(noise),
          Double.isNaN(differenceInNoises) ? "" : String.format(Locale.ROOT, ": the difference is %.1f times the noise",
              differenceInNoises)));
    }
    return c;
  }

  /** Whether the client may have set the level's figures. */
  static FindingBuilder.Causes client(SweepLevelResult l) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    List<String> reasons = ClientCheck.reasons(l);
    if (!reasons.isEmpty()) {
      c.likely("the client at " + l.label(), String.join("; ", reasons), CLIENT_STEP);
    } else if (l.clientLoad().isPresent()) {
      ClientLoad load = l.clientLoad().get();
      c.ruledOut("the client at " + l.label(), "it had CPU and time to spare (JVM " + Formats.percent(load.processCpuShare())
          + " of " + load.cores() + " cores, wake-up lag p90 " + Formats.duration(load.wakeupLagP90()) + ")");
    }
    return c;
  }

  /** Whether {@code fast} read better than {@code slow} because more of its prompts came from the prefix cache. */
  static FindingBuilder.Causes prefixCache(SweepLevelResult fast, SweepLevelResult slow) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    Optional<PrefixCacheUse> a = fast.prefixCache();
    Optional<PrefixCacheUse> b = slow.prefixCache();
    if (a.isEmpty() || b.isEmpty()) return c;
    double gap = a.get().hitRate() - b.get().hitRate();
    String cause = "prompts served from the prefix cache at " + fast.label();
    String reason = fast.label() + " took " + Formats.percent(a.get().hitRate()) + " of its prompt tokens from the cache, "
        + slow.label() + " " + Formats.percent(b.get().hitRate()) + " (" + a.get().source() + ")";
    if (gap > 0.1) {
      c.likely(cause, reason, "keep levels out of each other's cache: @Workload(prefixCache = AVOID), the default");
    } else {
      c.ruledOut(cause, reason);
    }
    return c;
  }
}
