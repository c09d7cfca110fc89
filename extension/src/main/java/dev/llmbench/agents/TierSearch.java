package dev.llmbench.agents;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The search of an {@link AgentCapacity}: one bracket per tier over agents in flight, every probe judged against every
 * tier. The next probe serves the first tier whose bracket is open: the range's low end first, then doubling while
 * the tier holds, then halving the bracket once it has failed. Assumes a tier held at C holds below C and failed at C
 * fails above it.
 */
final class TierSearch {

  private final int low;
  private final int high;
  private final List<AgentTier> tiers;
  private final int[] holds; // per tier: the most agents that held it, low - 1 for none
  private final int[] fails; // per tier: the fewest that failed it, high + 1 for none
  private final String[] broken;
  private final java.util.Map<Integer, Double>[] held; // per tier: agents probed -> share of resamples in which it held
  private final int maxProbes;
  private int probes;

  TierSearch(int low, int high, List<AgentTier> tiers, int maxProbes) {
    this.low = low;
    this.high = high;
    this.tiers = List.copyOf(tiers);
    this.maxProbes = maxProbes;
    this.holds = new int[tiers.size()];
    this.fails = new int[tiers.size()];
    this.broken = new String[tiers.size()];
    @SuppressWarnings("unchecked")
    java.util.Map<Integer, Double>[] shares = new java.util.Map[tiers.size()];
    for (int t = 0; t < shares.length; t++) shares[t] = new java.util.HashMap<>();
    this.held = shares;
    java.util.Arrays.fill(holds, low - 1);
    java.util.Arrays.fill(fails, high + 1);
  }

  /** The checked search an annotation declares. */
  static TierSearch of(AgentCapacity a) {
    if (a.agents().length != 2 || a.agents()[0] < 1 || a.agents()[1] <= a.agents()[0]) {
      throw new IllegalArgumentException("@AgentCapacity 'agents' is the range searched, {low, high} with 1 <= low < high, "
          + "was " + java.util.Arrays.toString(a.agents()));
    }
    if (a.tiers().length == 0) throw new IllegalArgumentException("@AgentCapacity needs at least one tier, e.g. "
        + "tiers = @AgentTier(name = \"interactive\", ttftMillis = 1000, tpotMillis = 50)");
    if (a.maxProbes() < 1) throw new IllegalArgumentException("@AgentCapacity 'maxProbes' must be at least 1, was "
        + a.maxProbes());
    List<String> names = new ArrayList<>();
    for (AgentTier t : a.tiers()) {
      if (t.name().isBlank() || names.contains(t.name())) {
        throw new IllegalArgumentException("@AgentTier names must be given and distinct, but \"" + t.name() + "\" is "
            + (t.name().isBlank() ? "blank" : "given twice"));
      }
      names.add(t.name());
      if (t.ttftMillis() < 0 || t.tpotMillis() < 0 || t.ttftMillis() == 0 && t.tpotMillis() == 0) {
        throw new IllegalArgumentException("@AgentTier \"" + t.name() + "\" needs a ttftMillis or tpotMillis ceiling "
            + "above 0 (and neither negative)");
      }
      if (!(t.percentile() >= 50 && t.percentile() <= 99.9)) {
        throw new IllegalArgumentException("@AgentTier \"" + t.name() + "\" 'percentile' must be from 50 to 99.9, was "
            + Formats.number(t.percentile()));
      }
      if (!(t.maxErrorRate() >= 0 && t.maxErrorRate() <= 1)) {
        throw new IllegalArgumentException("@AgentTier \"" + t.name() + "\" 'maxErrorRate' must be from 0 to 1, was "
            + Formats.number(t.maxErrorRate()));
      }
    }
    return new TierSearch(a.agents()[0], a.agents()[1], List.of(a.tiers()), a.maxProbes());
  }

  private boolean closed(int t) {
    return fails[t] - holds[t] <= 1;
  }

  /** The agents in flight of the next probe, or empty when every bracket is closed or the probes are spent. */
  OptionalInt next() {
    if (probes >= maxProbes) return OptionalInt.empty();
    for (int t = 0; t < tiers.size(); t++) {
      if (closed(t)) continue;
      if (fails[t] > high) return OptionalInt.of(holds[t] < low ? low : Math.min(high, Math.max(holds[t] + 1, 2 * holds[t])));
      return OptionalInt.of(Math.max(low, (holds[t] + fails[t]) / 2));
    }
    return OptionalInt.empty();
  }

  /** A probe of {@code agents} in flight measured {@code level}: each tier held or broke. */
  void record(int agents, SweepLevelResult level) {
    probes++;
    for (int t = 0; t < tiers.size(); t++) {
      held[t].put(agents, heldShare(tiers.get(t), level.requests()));
      Optional<String> breaks = breaks(tiers.get(t), level);
      if (breaks.isEmpty()) {
        holds[t] = Math.max(holds[t], agents);
      } else if (agents < fails[t]) {
        fails[t] = agents;
        broken[t] = breaks.get();
      }
    }
  }

  /** What of {@code tier} {@code level} broke first: its TTFT, its TPOT, its errors; empty when it held. */
  static Optional<String> breaks(AgentTier tier, SweepLevelResult level) {
    double p = tier.percentile();
    String at = "p" + Formats.number(p);
    if (tier.ttftMillis() > 0) {
      Optional<Duration> ttft = level.ttft().percentile(p);
      if (ttft.isEmpty()) return Optional.of("TTFT " + at + " unknown (too few replies)");
      if (ttft.get().toNanos() / 1e6 > tier.ttftMillis()) {
        return Optional.of("TTFT " + at + " " + Formats.duration(ttft.get()) + " above " + millis(tier.ttftMillis()));
      }
    }
    if (tier.tpotMillis() > 0) {
      Optional<Duration> tpot = level.tpot().percentile(p);
      if (tpot.isEmpty()) return Optional.of("TPOT " + at + " unknown (too few replies)");
      if (tpot.get().toNanos() / 1e6 > tier.tpotMillis()) {
        return Optional.of("TPOT " + at + " " + Formats.duration(tpot.get()) + " above " + millis(tier.tpotMillis()));
      }
    }
    if (level.errorRate() > tier.maxErrorRate()) {
      return Optional.of(String.format(Locale.ROOT, "%s of requests failed, above %s", Formats.percent(level.errorRate()),
          Formats.percent(tier.maxErrorRate())));
    }
    return Optional.empty();
  }

  /** The resamples of a probe's requests that say how sure its verdict is: as many as the level's intervals use. */
  static final int RESAMPLES = dev.llmbench.internal.metrics.Bootstrap.RESAMPLES;
  /** Fixed, so the same requests always give the same confidence. */
  private static final long SEED = 0xA6E7_75L;

  /**
   * How sure a probe's requests make us that {@code tier} held at its load: the share of {@value #RESAMPLES} bootstrap
   * resamples of the requests (drawn with replacement, as many as there are) in which the tier held, each judged as
   * {@link #breaks} judges the probe (the percentile of the successful requests' TTFT and TPOT, the share failed).
   * 1 when the tier held in every resample, 0 when it broke in every one.
   */
  static double heldShare(AgentTier tier, List<dev.llmbench.client.RequestResult> requests) {
    int n = requests.size();
    if (n == 0) return 0;
    double[] ttft = new double[n];
    double[] tpot = new double[n];
    boolean[] failed = new boolean[n];
    for (int i = 0; i < n; i++) {
      dev.llmbench.client.RequestResult r = requests.get(i);
      failed[i] = !r.succeeded();
      ttft[i] = failed[i] ? Double.NaN : r.ttft().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
      tpot[i] = failed[i] ? Double.NaN : r.tpot().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
    }
    java.util.SplittableRandom random = new java.util.SplittableRandom(SEED);
    double[] a = new double[n];
    double[] b = new double[n];
    int heldIn = 0;
    for (int k = 0; k < RESAMPLES; k++) {
      int na = 0;
      int nb = 0;
      int errors = 0;
      for (int i = 0; i < n; i++) {
        int j = random.nextInt(n);
        if (failed[j]) errors++;
        if (!Double.isNaN(ttft[j])) a[na++] = ttft[j];
        if (!Double.isNaN(tpot[j])) b[nb++] = tpot[j];
      }
      if (holds(tier, java.util.Arrays.copyOf(a, na), java.util.Arrays.copyOf(b, nb), (double) errors / n)) heldIn++;
    }
    return (double) heldIn / RESAMPLES;
  }

  /** Whether {@code tier} holds over these figures, as {@link #breaks} judges a level's. */
  private static boolean holds(AgentTier tier, double[] ttftMs, double[] tpotMs, double errorRate) {
    double p = tier.percentile();
    if (tier.ttftMillis() > 0 && (ttftMs.length == 0 || dev.llmbench.internal.metrics.Percentiles.of(ttftMs, p)
        > tier.ttftMillis())) {
      return false;
    }
    if (tier.tpotMillis() > 0 && (tpotMs.length == 0 || dev.llmbench.internal.metrics.Percentiles.of(tpotMs, p)
        > tier.tpotMillis())) {
      return false;
    }
    return errorRate <= tier.maxErrorRate();
  }

  private static String millis(double ms) {
    return Formats.duration(Duration.ofNanos(Math.round(ms * 1e6)));
  }

  /** What the search found so far. */
  AgentCapacities found() {
    List<AgentCapacities.Tier> out = new ArrayList<>();
    for (int t = 0; t < tiers.size(); t++) {
      boolean failed = fails[t] <= high;
      boolean held = holds[t] >= low;
      double holdsSure = held ? this.held[t].get(holds[t]) : Double.NaN;
      double failsSure = failed ? 1 - this.held[t].get(fails[t]) : Double.NaN;
      // Two probes measured apart: how sure we are of both is the product.
      double confidence = held && failed ? holdsSure * failsSure : held ? holdsSure : failed ? failsSure : Double.NaN;
      out.add(new AgentCapacities.Tier(tiers.get(t).name(), held ? holds[t] : 0,
          failed ? OptionalInt.of(fails[t]) : OptionalInt.empty(), failed ? broken[t] : "", closed(t), confidence,
          holdsSure, failsSure));
    }
    return new AgentCapacities(out);
  }
}
