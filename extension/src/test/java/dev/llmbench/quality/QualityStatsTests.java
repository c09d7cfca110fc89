package dev.llmbench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.result.ConfidenceInterval;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The statistics against values worked by hand and against known truth over fixed seeds. */
class QualityStatsTests {

  @Test
  void wilsonMatchesTheWorkedValuesAndStaysInsideZeroToOne() {
    ConfidenceInterval eight = QualityStats.wilson(8, 10); // Newcombe (1998), table I: 0.4902 to 0.9433
    assertThat(eight.lower()).isCloseTo(0.4902, within(1e-4));
    assertThat(eight.upper()).isCloseTo(0.9433, within(1e-4));
    ConfidenceInterval none = QualityStats.wilson(0, 20); // 0 to 0.1611
    assertThat(none.lower()).isZero();
    assertThat(none.upper()).isCloseTo(0.1611, within(1e-4));
    assertThat(QualityStats.wilson(20, 20).upper()).isEqualTo(1.0);
  }

  @Test
  void exactMcNemarIsTwiceTheBinomialTail() {
    assertThat(QualityStats.mcNemarExact(10, 2)).isCloseTo(2 * (1 + 12 + 66) / 4096.0, within(1e-12));
    assertThat(QualityStats.mcNemarExact(2, 10)).isEqualTo(QualityStats.mcNemarExact(10, 2));
    assertThat(QualityStats.mcNemarExact(0, 0)).isEqualTo(1.0);
    assertThat(QualityStats.mcNemarExact(5, 5)).isEqualTo(1.0);
    assertThat(QualityStats.mcNemarExact(25, 0)).isCloseTo(Math.pow(2, -24), within(1e-15));
  }

  /**
   * 500 items, each answered right by either deployment with the same probability: not flagged in at least 95 of
   * 100 seeds, decided as the reports and assertions decide (Pairing, then QualityComparison's own threshold).
   */
  @Test
  void equalAccuraciesAreNotFlaggedInAtLeast95Of100Seeds() {
    int flaggedByMcNemar = 0;
    int flaggedByRecovery = 0;
    int flaggedByDifference = 0;
    for (long seed = 1; seed <= 100; seed++) {
      QualityComparison c = compare(draw(seed, 500, 0.90, 0.90));
      if (c.worseBeyondNoise() || c.betterBeyondNoise()) flaggedByMcNemar++;
      if (c.recovery().upper() < 1 || c.recovery().lower() > 1) flaggedByRecovery++;
      if (c.difference().upper() < 0 || c.difference().lower() > 0) flaggedByDifference++;
    }
    assertThat(flaggedByMcNemar).as("seeds flagged by McNemar").isLessThanOrEqualTo(5);
    assertThat(flaggedByRecovery).as("seeds whose recovery interval excludes 1").isLessThanOrEqualTo(5);
    assertThat(flaggedByDifference).as("seeds whose difference interval excludes 0").isLessThanOrEqualTo(5);
  }

  /**
   * 0.90 against 0.85 on 500 paired items where the worse one loses the items the better finds hardest (as
   * the embedded engine and, mostly, quantised models do) is flagged under every seed; with independent
   * errors, a weaker design, it still is in most.
   */
  @Test
  void aDropFrom90To85On500PairedItemsIsDetected() {
    int nested = 0;
    int independent = 0;
    for (long seed = 1; seed <= 100; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      double[] a = new double[500];
      double[] b = new double[500];
      for (int i = 0; i < 500; i++) {
        double u = r.nextDouble();
        a[i] = u < 0.90 ? 1 : 0;
        b[i] = u < 0.85 ? 1 : 0;
      }
      QualityComparison c = compare(new double[][] {a, b});
      if (c.worseBeyondNoise() && c.recovery().upper() < 1) nested++;
      if (compare(draw(seed, 500, 0.90, 0.85)).worseBeyondNoise()) independent++;
    }
    assertThat(nested).isEqualTo(100);
    assertThat(independent).as("power with independent errors").isGreaterThanOrEqualTo(50);
  }

  /** The candidate ({@code pair[1]}) against the reference ({@code pair[0]}), item by item, as a level pair is compared. */
  static QualityComparison compare(double[][] pair) {
    return Pairing.compare("b", grading(pair[1]), "a", grading(pair[0]));
  }

  /** A level's grading whose item i is right where {@code right[i]} is 1. */
  static LevelGrading grading(double[] right) {
    List<EvalItem> items = IntStream.range(0, right.length)
        .mapToObj(i -> new EvalItem("item-" + i, List.of(ChatMessage.user("q" + i)), new Grader.Exact("yes"))).toList();
    EvalSet set = new EvalSet("known truth", items);
    Map<Integer, LevelGrading.Outcome> outcomes = new TreeMap<>();
    for (int i = 0; i < right.length; i++) {
      String reply = right[i] > 0 ? "yes" : "no";
      outcomes.put(i, new LevelGrading.Outcome(items.get(i), Optional.of(items.get(i).grader().grade(reply)), reply));
    }
    return new LevelGrading(set, outcomes);
  }

  /** Reference and candidate outcomes drawn independently per item. */
  static double[][] draw(long seed, int n, double p, double q) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = r.nextDouble() < p ? 1 : 0;
      b[i] = r.nextDouble() < q ? 1 : 0;
    }
    return new double[][] {a, b};
  }
}
