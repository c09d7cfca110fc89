package dev.llmbench.benchmarks.history;

import dev.llmbench.history.ChangePoint;
import dev.llmbench.history.ChangePointSettings;
import dev.llmbench.history.ChangePoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The history's change-point detection on known truth: seeded series of nightly runs with a planted step (3%, 5%,
 * 10% in noise of 2-5% spread), none, a slow drift, or outliers, and what the detector makes of them:
 *
 * <ul>
 *   <li><b>detected</b>: the share of series with a step in which a change point is reported within
 *       {@value #TOLERANCE} runs of it, over the whole series;</li>
 *   <li><b>false CP / 100</b>: change points reported farther than that from any step over the whole series, per
 *       100 runs;</li>
 *   <li><b>gate FA / 100</b>: the series analysed as it grows, one run a night from run {@value #GATE_FROM} on, with
 *       the CI gate "no change point in the newest {@value #GATE_RUNS} runs": the nights it fails for anything but
 *       the planted step, per 100 nights;</li>
 *   <li><b>runs to find</b>: on those nights, how many runs after the step were measured when the step was first
 *       reported (median and 90th percentile of the series where it was).</li>
 * </ul>
 *
 * Run by scripts/history-bench.sh. Arguments: {@code --series N} (per scenario, 200), {@code --runs N} (60),
 * {@code --step-at N} (40), {@code --seed N} (34), {@code --permutations N} (also judge by N seeded permutations:
 * slower; 0 to skip, the default).
 */
public final class ChangePointBenchmark {

  static final int TOLERANCE = 2;
  /** The gate: no change point in the newest 5 runs, checked every night from run 20 on. */
  static final int GATE_RUNS = 5;
  static final int GATE_FROM = 20;

  /** What a series holds besides its noise. */
  record Scenario(String name, double noise, double step, double drift, double outlierShare, double outlier) {}

  private ChangePointBenchmark() {}

  public static void main(String[] args) {
    int seriesCount = 200;
    int runs = 60;
    int stepAt = 40;
    long seed = 34;
    int permutations = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--series" -> seriesCount = Integer.parseInt(args[i + 1]);
        case "--runs" -> runs = Integer.parseInt(args[i + 1]);
        case "--step-at" -> stepAt = Integer.parseInt(args[i + 1]);
        case "--seed" -> seed = Long.parseLong(args[i + 1]);
        case "--permutations" -> permutations = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (--series, --runs, --step-at, --seed, --permutations)");
      }
    }
    List<Scenario> scenarios = new ArrayList<>();
    for (double noise : new double[] {0.02, 0.03, 0.05}) {
      for (double step : new double[] {0, -0.03, -0.05, -0.10}) {
        scenarios.add(new Scenario(step == 0 ? "noise only" : "step " + pct(step), noise, step, 0, 0, 0));
      }
    }
    scenarios.add(new Scenario("drift -5% over the series", 0.02, 0, -0.05, 0, 0));
    scenarios.add(new Scenario("drift -10% over the series", 0.02, 0, -0.10, 0, 0));
    scenarios.add(new Scenario("drift -5% + step -5%", 0.02, -0.05, -0.05, 0, 0));
    scenarios.add(new Scenario("outliers 5% of runs at -30%", 0.03, 0, 0, 0.05, -0.30));
    scenarios.add(new Scenario("outliers 5% at -30% + step -5%", 0.03, -0.05, 0, 0.05, -0.30));

    System.out.printf(Locale.ROOT, "# change points on known truth: %d series per scenario of %d runs, step at run %d,"
        + " seed %d; found = within %d runs of the step%n", seriesCount, runs, stepAt + 1, seed, TOLERANCE);
    List<ChangePointSettings> settings = new ArrayList<>();
    settings.add(ChangePointSettings.DEFAULTS);
    settings.add(ChangePointSettings.DEFAULTS.withMaxPValue(0.01));
    if (permutations > 0) settings.add(ChangePointSettings.DEFAULTS.withPermutations(permutations, seed));
    for (ChangePointSettings s : settings) {
      String how = s.significance() == dev.llmbench.history.Significance.T_TEST
          ? "Student's t, window " + s.window() : s.permutations() + " permutations (seed " + s.seed() + "), whole series";
      System.out.printf(Locale.ROOT, "%n## %s: %s, p <= %s, least magnitude %s%n", s.significance(), how,
          s.maxPValue(), pct(s.minMagnitude()));
      System.out.printf(Locale.ROOT, "%-32s %6s %9s %12s %12s %14s%n", "scenario", "noise", "detected", "false CP/100",
          "gate FA/100", "runs to find");
      int index = 0;
      long started = System.nanoTime();
      for (Scenario scenario : scenarios) {
        // The online search (one detection per run) is costly with permutations: offline figures only there.
        boolean online = s.significance() == dev.llmbench.history.Significance.T_TEST;
        System.out.println(row(scenario, s, seriesCount, runs, stepAt, seed * 1000 + index++, online));
      }
      System.out.printf(Locale.ROOT, "(%.1f s)%n", (System.nanoTime() - started) / 1e9);
    }
  }

  static String row(Scenario scenario, ChangePointSettings settings, int count, int runs, int stepAt, long seed,
      boolean online) {
    SplittableRandom random = new SplittableRandom(seed);
    boolean hasStep = scenario.step() != 0;
    int found = 0;
    int falseAlarms = 0;
    int gateAlarms = 0;
    int gateNights = 0;
    List<Integer> delays = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      double[] series = generate(scenario, runs, stepAt, random);
      List<ChangePoint> points = ChangePoints.detect(series, settings);
      boolean hit = false;
      for (ChangePoint p : points) {
        if (hasStep && Math.abs(p.index() - stepAt) <= TOLERANCE) hit = true;
        else falseAlarms++;
      }
      if (hit) found++;
      if (!online) continue;
      boolean reported = false;
      for (int t = GATE_FROM; t <= runs; t++) {
        List<ChangePoint> now = ChangePoints.detect(Arrays.copyOf(series, t), settings);
        int night = t;
        if (now.stream().anyMatch(p -> p.index() >= night - GATE_RUNS && !(hasStep && Math.abs(p.index() - stepAt) <= TOLERANCE))) {
          gateAlarms++;
        }
        gateNights++;
        if (hasStep && !reported && t > stepAt && now.stream().anyMatch(p -> Math.abs(p.index() - stepAt) <= TOLERANCE)) {
          delays.add(t - stepAt);
          reported = true;
        }
      }
    }
    String detected = hasStep ? String.format(Locale.ROOT, "%.0f%%", 100.0 * found / count) : "-";
    String alarms = String.format(Locale.ROOT, "%.2f", 100.0 * falseAlarms / ((double) count * runs));
    String delay = "-";
    if (!delays.isEmpty()) {
      int[] sorted = delays.stream().mapToInt(Integer::intValue).sorted().toArray();
      delay = String.format(Locale.ROOT, "%d (p90 %d)", sorted[sorted.length / 2],
          sorted[(int) Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)]);
    }
    String gate = online ? String.format(Locale.ROOT, "%.2f", 100.0 * gateAlarms / gateNights) : "-";
    return String.format(Locale.ROOT, "%-32s %6s %9s %12s %12s %14s", scenario.name(), pct(scenario.noise()), detected,
        alarms, gate, delay);
  }

  /** A nightly figure around 1000: noise, a drift over the whole series, a step at stepAt, outlier runs. */
  static double[] generate(Scenario s, int runs, int stepAt, SplittableRandom random) {
    double[] series = new double[runs];
    for (int i = 0; i < runs; i++) {
      double level = 1000 * (1 + s.drift() * i / (runs - 1.0)) * (i >= stepAt ? 1 + s.step() : 1);
      double value = level * (1 + s.noise() * gaussian(random));
      if (s.outlierShare() > 0 && random.nextDouble() < s.outlierShare()) value = level * (1 + s.outlier());
      series[i] = value;
    }
    return series;
  }

  static double gaussian(SplittableRandom random) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
  }

  static String pct(double fraction) {
    double p = fraction * 100;
    return (p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p) : String.format(Locale.ROOT, "%.1f", p)) + "%";
  }
}
