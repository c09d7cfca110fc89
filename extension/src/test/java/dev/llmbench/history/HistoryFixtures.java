package dev.llmbench.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Levels to store and analyse: series with a planted step, runs a day apart, commits named by their run. */
final class HistoryFixtures {

  static final Instant START = Instant.parse("2026-01-01T02:00:00Z");

  private HistoryFixtures() {}

  static RunIdentity run(int number) {
    return new RunIdentity("run-" + number, START.plusSeconds(86_400L * number), String.format("%07x%033d", number, 0),
        "main", "build-" + number, "vllm", "0.11.0", "llama-3-8b", "ci-runner-1");
  }

  static LevelIdentity level(String label) {
    return new LevelIdentity("dev.example.ServingTest", "throughputScales", label, "", "a1b2c3d4e5f6", "0f1e2d3c4b5a");
  }

  /**
   * Runs 0..runs-1 of one level: output throughput around {@code mean} with {@code noise} relative spread, times
   * {@code 1 + step} from run {@code stepAt} on; TTFT p99 flat.
   */
  static List<LevelRecord> series(String label, int runs, double mean, double noise, int stepAt, double step, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<LevelRecord> out = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      double level = i >= stepAt ? mean * (1 + step) : mean;
      double throughput = level * (1 + noise * gaussian(random));
      double ttft = 80 * (1 + noise * gaussian(random));
      out.add(new LevelRecord(run(i), level(label), Map.of("output_throughput", new StoredFigure(throughput, "tok/s"),
          "ttft.p50", new StoredFigure(ttft, "ms"))));
    }
    return out;
  }

  static double gaussian(SplittableRandom random) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
