package dev.llmbench.internal.analysis;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Throughput falls from level {@code i - 1} to {@code i} beyond the noise of both; or, within the higher
 * level's noise, when that level's own reading is suspect (a cold start, a partial round, ramp and drain):
 * the few slow requests that widen its interval are then the reason, not chance.
 */
final class ThroughputDropDetector implements StepDetector {

  @Override
  public Optional<Finding> detect(Curve curve, int i) {
    List<SweepLevelResult> levels = curve.levels();
    DeploymentDescription facts = curve.facts();
    SweepLevelResult lo = levels.get(i - 1);
    SweepLevelResult hi = levels.get(i);
    double a = Figures.throughput(lo);
    double b = Figures.throughput(hi);
    if (b >= a) return Optional.empty();
    boolean beyondNoise = Noise.throughputsDiffer(lo, hi);
    Optional<String> suspect = suspectReading(hi);
    if (!beyondNoise && (suspect.isEmpty() || !Noise.differ(a, Noise.FLOOR, b, Noise.FLOOR))) return Optional.empty();
    double noise = Math.hypot(a * Noise.throughput(lo), b * Noise.throughput(hi));
    String summary = beyondNoise
        ? String.format(Locale.ROOT, "throughput fell from %.1f tok/s at C=%d to %.1f tok/s at C=%d, beyond the noise of "
            + "both (%s): more load, less done", a, lo.concurrency(), b, hi.concurrency(), noiseLabels(lo, hi))
        : String.format(Locale.ROOT, "throughput fell from %.1f tok/s at C=%d to %.1f tok/s at C=%d, within C=%d's noise "
            + "(±%s), which its %s makes wide: %s's reading is suspect before the server is", a, lo.concurrency(), b,
            hi.concurrency(), hi.concurrency(), Formats.percent(Noise.throughput(hi)), suspect.get(), hi.label());
    Optional<String> perRequest = perRequest(lo, hi);
    if (perRequest.isPresent()) summary += "; " + perRequest.get();
    FindingBuilder f = new FindingBuilder(FindingKind.THROUGHPUT_DROP, summary, List.of(lo, hi))
        .evidence("output throughput at " + lo.label(), a, "tok/s").evidence("output throughput at " + hi.label(), b, "tok/s")
        .evidence("noise at " + lo.label(), Noise.throughput(lo), "fraction")
        .evidence("noise at " + hi.label(), Noise.throughput(hi), "fraction")
        .evidence("TPOT median at " + lo.label(), Figures.medianMs(lo, Metric.TPOT), "ms")
        .evidence("TPOT median at " + hi.label(), Figures.medianMs(hi, Metric.TPOT), "ms")
        .evidence("TTFT median at " + lo.label(), Figures.medianMs(lo, Metric.TTFT), "ms")
        .evidence("TTFT median at " + hi.label(), Figures.medianMs(hi, Metric.TTFT), "ms");
    f.add(ReadingCauses.cold(hi)).add(ReadingCauses.sampleSize(hi, (a - b) / noise)).add(ReadingCauses.client(hi))
        .add(ReadingCauses.prefixCache(lo, hi));
    Derived.evidence(f, lo, hi);
    f.add(serverContention(lo, hi, facts));
    return Optional.of(f.build());
  }

  /**
   * {@code ±1.0%, ±2.0%}; for summaries, where the figures came from: {@code ..., each from its own spread}, or
   * {@code ±1.0% from its spread, ±5.0% assumed}.
   */
  private static String noiseLabels(SweepLevelResult lo, SweepLevelResult hi) {
    String a = "±" + Formats.percent(Noise.throughput(lo));
    String b = "±" + Formats.percent(Noise.throughput(hi));
    if (!Derived.summary(lo) && !Derived.summary(hi)) return a + ", " + b;
    if (Noise.fromData(lo) && Noise.fromData(hi)) return a + ", " + b + ", each from its own spread";
    return a + (Noise.fromData(lo) ? " from its spread" : " assumed") + ", " + b + (Noise.fromData(hi) ? " from its spread"
        : " assumed");
  }

  /**
   * What two summaries' latencies say of a throughput that fell: each request took so many times as long for its
   * output, so the C at the higher level were each served at that fraction of the lower level's speed.
   */
  private static Optional<String> perRequest(SweepLevelResult lo, SweepLevelResult hi) {
    Optional<Derived> x = Derived.of(lo);
    Optional<Derived> y = Derived.of(hi);
    Optional<String> stat = Figures.commonStat(lo, hi, Metric.E2E_LATENCY);
    if (x.isEmpty() || y.isEmpty() || stat.isEmpty() || Double.isNaN(x.get().perRequestRate())
        || Double.isNaN(y.get().perRequestRate())) {
      return Optional.empty();
    }
    double e2eLo = Figures.statMs(lo, Metric.E2E_LATENCY, stat.get());
    double e2eHi = Figures.statMs(hi, Metric.E2E_LATENCY, stat.get());
    double tLo = x.get().tokens();
    double tHi = y.get().tokens();
    String output = Math.abs(tHi - tLo) <= 0.05 * tLo ? String.format(Locale.ROOT, "the same output (%.0f tokens", tHi)
        : String.format(Locale.ROOT, "%.0f tokens against %.0f (", tHi, tLo);
    double speed = (tHi / e2eHi) / (tLo / e2eLo);
    String how;
    if (Figures.commonStat(lo, hi, Metric.TTFT).isEmpty()) {
      how = String.format(Locale.ROOT, "the %d were served at %.2fx the speed each, or one after another (no TTFT to tell)",
          hi.concurrency(), speed);
    } else if (Figures.rose(lo, hi, Metric.TTFT) && !x.get().decode().isEmpty() && !y.get().decode().isEmpty()
        && !Diagnosis.decodeRose(x.get(), y.get())) {
      how = "each waited longer for its first token (" + Diagnosis.ttftText(lo, hi) + ") while its time per token kept its "
          + "pace: they were served fewer at a time, not slower";
    } else {
      how = String.format(Locale.ROOT, "the %d were served at %.2fx the speed each", hi.concurrency(), speed);
    }
    return Optional.of(String.format(Locale.ROOT, "each request took %.2fx as long for %s; E2E latency %s %.2f to %.2f s; "
        + "derived per-request rate %.1f to %.1f tok/s): %s", e2eHi / e2eLo, output, stat.get(), e2eLo / 1e3, e2eHi / 1e3,
        x.get().perRequestRate(), y.get().perRequestRate(), how));
  }

  /** What makes a level's own reading suspect, as a phrase: its cold start, its partial round, its ramp and drain. */
  private static Optional<String> suspectReading(SweepLevelResult l) {
    if (l.findings().stream().anyMatch(f -> f.kind() == FindingKind.COLD_START)) return Optional.of("cold start");
    if (LevelWarnings.partialRound(l).isPresent()) return Optional.of("partial last round");
    if (LevelWarnings.steadyStateGap(l).isPresent()) return Optional.of("ramp-up and drain");
    return Optional.empty();
  }

  /** Contention in the server, only as far as TPOT, TTFT and its gauges bear it out. */
  private static FindingBuilder.Causes serverContention(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    double tpotLo = Figures.medianMs(lo, Metric.TPOT);
    double tpotHi = Figures.medianMs(hi, Metric.TPOT);
    double ratio = (double) hi.concurrency() / lo.concurrency();
    String tpot = String.format(Locale.ROOT, "TPOT %.1f to %.1f ms", tpotLo, tpotHi);
    if (Figures.rose(lo, hi, Metric.TPOT) && tpotHi / tpotLo > ratio) {
      c.likely("contention in the server", String.format(Locale.ROOT, "each decode step slowed %.1f-fold (%s) while the "
          + "batch grew %.1f-fold: interconnect, memory bandwidth, KV-cache preemption or a CPU-bound scheduler",
          tpotHi / tpotLo, tpot, ratio), facts.isEmpty() ? Diagnosis.DESCRIBE_STEP : null);
    } else if (Figures.rose(lo, hi, Metric.TPOT)) {
      c.possible("contention in the server", String.format(Locale.ROOT, "each decode step slowed %.1f-fold (%s), less than "
          + "the %.1f-fold batch: decoding alone does not explain the drop", tpotHi / tpotLo, tpot, ratio), null);
    } else if (!Double.isNaN(tpotLo) && !Double.isNaN(tpotHi)) {
      c.ruledOut("decode steps that slow with the batch", tpot + ": each step kept its pace or got faster");
    }
    boolean waitRead = Double.isNaN(tpotLo) || Double.isNaN(tpotHi) ? derivedContention(lo, hi, facts, ratio, c) : false;
    if (!waitRead && Figures.rose(lo, hi, Metric.TTFT)) {
      Diagnosis.queueing(hi, Figures.gauge(hi, Figures.WAITING), Diagnosis.ttftText(lo, hi), c);
    }
    Figures.counter(hi, Figures.PREEMPTIONS).filter(p -> p > 0).ifPresent(p -> c.likely("KV-cache pressure",
        Math.round(p) + " preemptions at " + hi.label(), "give the KV cache more memory or lower the concurrent sequences"));
    return c;
  }

  /**
   * Contention read from two summaries without TPOT: each request's derived time per token against the batch's
   * growth, and the bound the deployment facts name, said to be likely from them, not measured per token.
   */
  private static boolean derivedContention(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts, double ratio,
      FindingBuilder.Causes c) {
    Optional<Derived> x = Derived.of(lo);
    Optional<Derived> y = Derived.of(hi);
    if (x.isEmpty() || y.isEmpty() || x.get().decode().isEmpty() || y.get().decode().isEmpty()) return false;
    String perToken = Diagnosis.perToken(x.get(), y.get());
    double grew = y.get().decodeNanos() / x.get().decodeNanos();
    String confidence = "likely, from " + (facts.isEmpty() ? "" : "the facts and ") + "the growth of per-request time, "
        + "not measured per token";
    if (Diagnosis.decodeRose(x.get(), y.get()) && grew > ratio) {
      c.likely("contention in the server", String.format(Locale.ROOT, "each request's time per token grew %.2f-fold (%s) "
          + "while the batch grew %.1f-fold: the %d were served at %.2fx the speed of %s's each", grew, perToken, ratio,
          hi.concurrency(), 1 / grew, lo.label()), facts.isEmpty() ? Diagnosis.DESCRIBE_STEP : null);
      if (!facts.isEmpty()) c.add(Diagnosis.qualified(Diagnosis.decodeBound(facts), confidence));
    } else if (Diagnosis.decodeRose(x.get(), y.get())) {
      c.possible("contention in the server", String.format(Locale.ROOT, "each request's time per token grew %.2f-fold (%s), "
          + "less than the %.1f-fold batch: decoding alone does not explain the drop", grew, perToken, ratio), null);
    } else {
      c.ruledOut("decode steps that slow with the batch", perToken + ": each request's time per token kept its pace");
      if (Figures.rose(lo, hi, Metric.TTFT)) Diagnosis.waitBeforeFirstToken(lo, hi, perToken, c);
      // A wait for a slot would have made each request longer: with its time kept, none is left to tell.
      return true;
    }
    if (Figures.commonStat(lo, hi, Metric.TTFT).isEmpty()) {
      c.possible("a batch or slot limit below C", String.format(Locale.ROOT, "without TTFT a wait for a slot looks the same "
          + "in E2E latency: a server running %d at a time would make each of %d requests take %.1fx as long for about "
          + "the same throughput", lo.concurrency(), hi.concurrency(), ratio), "add TTFT (ttft p50, or median_ttft_ms) to "
          + "the table: it tells the wait for the first token from decoding");
    }
    return false;
  }
}
