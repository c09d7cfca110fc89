package dev.llmbench.internal.analysis;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A latency's median falls from level {@code i - 1} to {@code i}, beyond the noise of both: the lower was not steady. */
final class LatencyFallsDetector implements StepDetector {

  @Override
  public Optional<Finding> detect(Curve curve, int i) {
    List<SweepLevelResult> levels = curve.levels();
    SweepLevelResult lo = levels.get(i - 1);
    SweepLevelResult hi = levels.get(i);
    List<String> fell = new ArrayList<>();
    List<Metric> metrics = List.of(Metric.E2E_LATENCY, Metric.TTFT, Metric.TPOT);
    for (Metric m : metrics) {
      if (Figures.fell(lo, hi, m)) {
        String stat = Figures.commonStat(lo, hi, m).orElseThrow();
        fell.add(String.format(Locale.ROOT, "%s %s %.1f to %.1f ms", m.label(), stat, Figures.statMs(lo, m, stat),
            Figures.statMs(hi, m, stat)));
      }
    }
    if (fell.isEmpty()) return Optional.empty();
    String summary = "latency falls with load from " + lo.label() + " to " + hi.label() + " (" + String.join("; ", fell)
        + "): more load, faster requests, so " + lo.label() + " was not steady";
    Optional<Derived> x = Derived.of(lo);
    Optional<Derived> y = Derived.of(hi);
    if (x.isPresent() && y.isPresent() && !Double.isNaN(x.get().perRequestRate()) && !Double.isNaN(y.get().perRequestRate())) {
      summary += String.format(Locale.ROOT, "; each request ran at %.1f tok/s at %s and %.1f tok/s at %s (derived: tokens / "
          + "E2E)", x.get().perRequestRate(), lo.label(), y.get().perRequestRate(), hi.label());
    }
    FindingBuilder b = new FindingBuilder(FindingKind.LATENCY_FALLS_WITH_LOAD, summary, List.of(lo, hi));
    for (Metric m : metrics) {
      String stat = Figures.commonStat(lo, hi, m).orElse("median");
      b.evidence(m.label() + " " + stat + " at " + lo.label(), Figures.statMs(lo, m, stat), "ms")
          .evidence(m.label() + " " + stat + " at " + hi.label(), Figures.statMs(hi, m, stat), "ms");
    }
    Derived.evidence(b, lo, hi);
    b.add(ReadingCauses.prefixCache(hi, lo));
    FindingBuilder.Causes cold = ReadingCauses.cold(lo);
    Optional<String> notFirstRound = slowerThanAFirstRound(lo, hi);
    if (notFirstRound.isPresent()) cold = new FindingBuilder.Causes().ruledOut("a cold start at " + lo.label(), notFirstRound.get());
    Optional<FirstRound> first = FirstRound.outlier(lo);
    if (first.isPresent() && first.get().laterMedian().toNanos() > Figures.median(hi, first.get().metric())
        .map(d -> d.toNanos() + Noise.medianNanos(hi, first.get().metric())).orElse(Double.MAX_VALUE)) {
      // Medians barely move for one cold round: if the later rounds are still slower, the cold start is not why.
      cold = new FindingBuilder.Causes().possible("a cold start at " + lo.label(), "its first round was cold, but its "
          + "second half's " + first.get().metric().label() + " median (" + Formats.duration(first.get().laterMedian())
          + ") is still above " + hi.label() + "'s", ReadingCauses.WARM_UP_STEP);
    }
    b.add(cold).add(ReadingCauses.client(lo)).add(ReadingCauses.sampleSize(lo, Double.NaN));
    b.possible("a server that speeds up under load", "accelerator clocks that ramp up, or speculative decoding that "
        + "accepts more at larger batches", null);
    return Optional.of(b.build());
  }

  /**
   * Why a summary level whose latency fell at the next level was slower than a cold first round can make it: were
   * its first round of C at its maximum and every other request as fast as the higher level's slowest, its mean
   * would be at most {@code (C x top + (n - C) x fast) / n}; a mean above that says more than its first round was slow.
   */
  private static Optional<String> slowerThanAFirstRound(SweepLevelResult lo, SweepLevelResult hi) {
    Optional<Derived.Spread> s = Derived.of(lo).flatMap(Derived::spread).filter(Derived.Spread::topIsMaximum);
    Optional<Derived.Spread> fast = Derived.of(hi).flatMap(Derived::spread);
    Optional<java.time.Duration> mean = lo.e2eLatency().mean();
    long n = lo.succeeded();
    int c = lo.concurrency();
    if (s.isEmpty() || fast.isEmpty() || mean.isEmpty() || n < 2L * c) return Optional.empty();
    java.time.Duration top = s.get().top().orElseThrow();
    java.time.Duration quick = fast.get().top().orElse(fast.get().centre());
    double bound = (c * (double) top.toNanos() + (n - c) * (double) quick.toNanos()) / n;
    if (mean.get().toNanos() <= bound) return Optional.empty();
    return Optional.of(String.format(Locale.ROOT, "even were its first round of %d as slow as its slowest request (%s) and "
        + "its other %d as fast as %s's %s (%s), its mean would be %s, not %s: more than its first round was slow", c,
        Formats.duration(top), n - c, hi.label(), fast.get().top().isPresent() ? Formats.percentile(fast.get().topP())
        : fast.get().centreStat(), Formats.duration(quick), Formats.duration(java.time.Duration.ofNanos(Math.round(bound))),
        Formats.duration(mean.get())));
  }
}
