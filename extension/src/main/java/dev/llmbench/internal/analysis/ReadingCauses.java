package dev.llmbench.internal.analysis;

import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.PrefixCacheUse;
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
      Optional<String> noColdRound = firstRoundNoOutlier(l);
      if (noColdRound.isPresent()) {
        c.ruledOut("a cold start at " + who, noColdRound.get());
      } else {
        c.possible("a cold start at " + who, "a summary says neither whether " + who + " was warmed up nor how its first "
            + "round compared with the rest", WARM_UP_STEP);
      }
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

  /**
   * Why a summary level's first round cannot have been slow enough to matter, when its figures bound it: every
   * request took at most its top percentile (the maximum, over so few), so its first round's C requests were at
   * most that, and the rest at least {@code (n x mean - C x top) / (n - C)}; their difference cannot exceed
   * {@code n (top - mean) / (n - C)}. Below {@value FirstRound#MATTERS} of the window, the level's own criterion
   * for a cold start that matters, it is ruled out.
   */
  static Optional<String> firstRoundNoOutlier(SweepLevelResult l) {
    Optional<Derived.Spread> s = Derived.of(l).flatMap(Derived::spread).filter(Derived.Spread::topIsMaximum);
    Optional<java.time.Duration> mean = l.e2eLatency().mean();
    long n = l.succeeded();
    int c = l.concurrency();
    if (s.isEmpty() || mean.isEmpty() || !Figures.closed(l) || n < 2L * c) return Optional.empty();
    double top = s.get().top().orElseThrow().toNanos();
    double excess = Math.max(0, n * (top - mean.get().toNanos()) / (n - c));
    if (excess >= FirstRound.MATTERS * l.window().toNanos()) return Optional.empty();
    return Optional.of(String.format(Locale.ROOT, "its requests took %s on average and at most %s (%s), so its first "
        + "round of %d was at most %s slower than the rest: under %s of its %s window",
        Formats.duration(mean.get()), Formats.duration(s.get().top().orElseThrow()), s.get().describe(), c,
        Formats.duration(java.time.Duration.ofNanos(Math.round(excess))), Formats.percent(FirstRound.MATTERS),
        Formats.duration(l.window())));
  }

  private static String warmupSays(SweepLevelResult l) {
    Optional<WarmupReport> w = l.warmup();
    if (w.isEmpty()) return "; it had no warm-up";
    if (w.get().failed() > 0) return "; " + w.get().failed() + " of its " + w.get().requests() + " warm-up requests failed";
    if (!w.get().reachedTarget()) {
      return "; its warm-up never had " + w.get().target() + " in flight together (at most " + w.get().peakInFlight() + ")";
    }
    if (w.get().maxTokens() < Figures.maxTokensAsked(l)) {
      return "; its warm-up's requests were shorter (max_tokens " + w.get().maxTokens() + ") than the level's ("
          + Figures.maxTokensAsked(l) + ")";
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
    } else if (Derived.summary(l) && Figures.closed(l) && Derived.of(l).orElseThrow().noise().isPresent()) {
      summarySampleSize(l, Derived.of(l).orElseThrow(), who, differenceInNoises, c);
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

  /**
   * A summary whose noise came from its spread: Little's law says how full its window was, and so whether ramp-up
   * and drain moved its figure; a handful of requests still makes its spread, and its top percentile, rest on few.
   */
  private static void summarySampleSize(SweepLevelResult l, Derived d, String who, double differenceInNoises,
      FindingBuilder.Causes c) {
    String little = String.format(Locale.ROOT, "by Little's law %.2f of %d were in flight on average", d.inFlight(),
        l.concurrency());
    String spread = d.spread().orElseThrow().describe();
    if (!d.windowFull()) {
      c.likely(who, little + " (mean E2E x ok / wall): ramp-up, drain or gaps between requests took "
          + Formats.percent(1 - d.inFlight() / l.concurrency()) + " of its window", ROUNDS_STEP);
    } else if (l.succeeded() < 20 || Figures.rounds(l) < Measurement.MIN_ROUNDS) {
      c.possible(who, String.format(Locale.ROOT, "%d requests in %d round(s) of %d (%s): one slow request would move its "
          + "figure, and its spread rests on a handful; ramp-up and drain took little of its window, though: %s",
          l.succeeded(), Figures.rounds(l), l.concurrency(), spread, little), ROUNDS_STEP);
    } else {
      c.ruledOut(who, String.format(Locale.ROOT, "%d requests, noise ±%s from its spread (%s)%s", l.succeeded(),
          Formats.percent(Noise.throughput(l)), spread, Double.isNaN(differenceInNoises) ? ""
              : String.format(Locale.ROOT, ": the difference is %.1f times the noise", differenceInNoises)));
    }
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
