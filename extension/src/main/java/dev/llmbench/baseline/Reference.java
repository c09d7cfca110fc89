package dev.llmbench.baseline;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.Changes;
import dev.llmbench.internal.compare.ComparisonSide;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.LoadShape;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run to compare with, level by level: a saved baseline (levels by name) or vLLM results (levels by
 * load, as {@code vllm bench serve} names no levels).
 *
 * @param source  what people read: the file
 * @param byLabel levels by name, {@code C=8} or {@code C=8 · int4}
 * @param byLoad  levels by {@link #loadKey}
 */
record Reference(String source, Map<String, Entry> byLabel, Map<String, Entry> byLoad) {

  /**
   * The reference's entry for one level: its figures, and where they came from.
   *
   * @param origin where in the source it came from, e.g. a vLLM result's file name; empty for the source itself
   */
  public record Entry(ComparisonSide sample, String origin) {}

  public Reference {
    byLabel = Map.copyOf(byLabel);
    byLoad = Map.copyOf(byLoad);
  }

  /** {@code C=8}, or {@code rate=4} and {@code rate=4,max=16} for an open loop with a cap. */
  public static String loadKey(LoadShape load) {
    return load.match(c -> "C=" + c.concurrency(), o -> "rate=" + Formats.number(o.rate().perSecond())
        + (o.maxConcurrency().isPresent() ? ",max=" + o.maxConcurrency().getAsInt() : ""));
  }

  public Optional<Entry> match(SweepLevelResult level) {
    Entry byName = byLabel.get(level.label());
    return byName != null ? Optional.of(byName) : Optional.ofNullable(byLoad.get(loadKey(level.load())));
  }

  /** The level against its match, latencies at {@code percentiles}; no deltas when the reference has no such level. */
  public BaselineComparison compare(SweepLevelResult level, List<Metric> metrics, List<Double> percentiles, double maxRegression) {
    Optional<Entry> match = match(level);
    String where = source + match.filter(m -> !m.origin().isEmpty()).map(m -> " (" + m.origin() + ")").orElse("");
    return new BaselineComparison(where, level.label(), maxRegression,
        match.map(m -> Changes.all(m.sample(), ComparisonSide.of(level), metrics, percentiles, maxRegression)).orElse(List.of()));
  }
}
