package dev.llmbench.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LengthStatsTests {

  @Test
  void meanPercentilesAndABinForEveryValueOnSharedEdges() {
    int[] requested = {10, 20, 30, 40};
    int[] actual = {12, 22, 32, 45};
    int[] edges = LengthStats.edges(requested, actual);
    assertThat(edges[0]).isEqualTo(10);
    assertThat(edges[edges.length - 1]).isGreaterThan(45);
    LengthStats r = LengthStats.of(requested, edges);
    LengthStats a = LengthStats.of(actual, edges);
    assertThat(r.mean()).isEqualTo(25.0);
    assertThat(r.p50()).isEqualTo(25.0); // numpy: linear between 20 and 30
    assertThat(r.p99()).isCloseTo(39.7, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(java.util.Arrays.stream(r.counts()).sum()).isEqualTo(4);
    assertThat(java.util.Arrays.stream(a.counts()).sum()).isEqualTo(4);
    assertThat(r.counts().length).isLessThanOrEqualTo(LengthStats.MAX_BINS);
  }

  @Test
  void manyDistinctValuesShareAtMostTwentyBins() {
    int[] v = java.util.stream.IntStream.rangeClosed(1, 1000).toArray();
    int[] edges = LengthStats.edges(v);
    assertThat(edges.length - 1).isEqualTo(20);
    assertThat(LengthStats.of(v, edges).counts()).containsOnly(50);
  }
}
