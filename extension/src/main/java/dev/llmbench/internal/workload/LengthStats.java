package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.metrics.Percentiles;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * Lengths in tokens of one level's requests, requested or actual: count, mean, p50 and p99 (numpy's
 * percentiles, as every figure here), and a histogram over bin edges shared with the lengths they are
 * compared with, so requested and actual bars stand on the same bins.
 *
 * @param edges  {@code counts.length + 1} ascending bin edges; bin i holds lengths in [edges[i], edges[i+1]),
 *               the last bin also its upper edge
 */
@API(status = INTERNAL)
public record LengthStats(int count, double mean, double p50, double p99, int min, int max, int[] edges, int[] counts) {

  /** At most this many bins: enough to see a shape, few enough to read in a chart. */
  static final int MAX_BINS = 20;

  public static LengthStats of(int[] values, int[] edges) {
    int[] counts = new int[edges.length - 1];
    if (values.length == 0) return new LengthStats(0, Double.NaN, Double.NaN, Double.NaN, 0, 0, edges, counts);
    double[] d = Arrays.stream(values).asDoubleStream().toArray();
    for (int v : values) {
      int i = Arrays.binarySearch(edges, v);
      int bin = i >= 0 ? i : -i - 2;
      counts[Math.max(0, Math.min(counts.length - 1, bin))]++;
    }
    return new LengthStats(values.length, Arrays.stream(d).average().orElse(Double.NaN), Percentiles.of(d, 50),
        Percentiles.of(d, 99), Arrays.stream(values).min().orElse(0), Arrays.stream(values).max().orElse(0), edges, counts);
  }

  /** Equal-width whole-number bins over every value of every set, at most {@link #MAX_BINS} of them. */
  public static int[] edges(int[]... sets) {
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (int[] s : sets) {
      for (int v : s) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    if (lo > hi) return new int[] {0, 1};
    int width = Math.max(1, (int) Math.ceil((hi - lo + 1) / (double) MAX_BINS));
    int bins = Math.max(1, (int) Math.ceil((hi - lo + 1) / (double) width));
    int[] edges = new int[bins + 1];
    for (int i = 0; i <= bins; i++) edges[i] = lo + i * width;
    return edges;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LengthStats s && count == s.count && Double.compare(mean, s.mean) == 0 && Arrays.equals(edges, s.edges)
        && Arrays.equals(counts, s.counts);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(edges) + Arrays.hashCode(counts);
  }

  @Override
  public String toString() {
    return count == 0 ? "none" : String.format(java.util.Locale.ROOT, "mean %.1f, p50 %.0f, p99 %.0f (%d to %d)", mean, p50, p99, min, max);
  }

  /** As the level documents and the trace feature write it: count, mean, p50, p99, min, max and the histogram. */
  public ObjectNode json() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("count", count);
    if (count > 0) {
      n.put("mean", mean);
      n.put("p50", p50);
      n.put("p99", p99);
      n.put("min", min);
      n.put("max", max);
    }
    ObjectNode h = n.putObject("histogram");
    ArrayNode e = h.putArray("edges");
    for (int x : edges) e.add(x);
    ArrayNode c = h.putArray("counts");
    for (int x : counts) c.add(x);
    return n;
  }
}
