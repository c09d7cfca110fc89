package dev.llmbench.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The bisection on its own, against an oracle whose answer is known. */
class SearchTests {

  /** Runs the search to its end against {@code holds}; the loads it probed, in order. */
  static List<Double> run(Search search, DoublePredicate holds) {
    List<Double> probed = new ArrayList<>();
    OptionalDouble next;
    while ((next = search.next()).isPresent()) {
      double load = next.getAsDouble();
      probed.add(load);
      search.record(load, holds.test(load));
    }
    return probed;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 9, 16, 31})
  void findsEveryConcurrencyBetweenTheBoundsExactly(int capacity) {
    Search search = new Search(1, 32, 1, true);
    List<Double> probed = run(search, c -> c <= capacity);
    if (capacity < 32) {
      assertThat(search.outcome()).isEqualTo(Capacity.Outcome.FOUND);
      assertThat(search.held()).isEqualTo(capacity);
      assertThat(search.failed()).isEqualTo(capacity + 1);
    }
    // The bounds, then bisection: about log2(31) rounds, one more where the geometric middle gives way to
    // the plain one; never a load twice.
    assertThat(probed).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(2 + 5 + 1);
    assertThat(probed.subList(0, 2)).containsExactly(1.0, 32.0);
  }

  @Test
  void aSmallAnswerInAWideRangeTakesFewProbesBecauseTheMiddleIsGeometric() {
    // 1, 1024, 32, 6, 14, 9, 12, 11: the plain middle would probe 512, 256, 128, ... first.
    assertThat(run(new Search(1, 1024, 1, true), c -> c <= 11)).containsExactly(1.0, 1024.0, 32.0, 6.0, 14.0, 9.0, 12.0, 11.0);
    assertThat(run(new Search(1, 1024, 1, true), c -> c <= 300)).hasSizeLessThanOrEqualTo(2 + 10 + 1);
  }

  @Test
  void aRateIsFoundWithinItsStep() {
    Search search = new Search(0.5, 32, 0.25, false);
    run(search, r -> r <= 7.3);
    assertThat(search.outcome()).isEqualTo(Capacity.Outcome.FOUND);
    assertThat(search.held()).isLessThanOrEqualTo(7.3).isGreaterThan(7.3 - 0.25);
    assertThat(search.failed() - search.held()).isLessThanOrEqualTo(0.25);
  }

  @Test
  void endsAtTheBoundsWhenTheAnswerIsOutsideThem() {
    Search below = new Search(4, 64, 1, true);
    assertThat(run(below, c -> false)).containsExactly(4.0);
    assertThat(below.outcome()).isEqualTo(Capacity.Outcome.FAILS_AT_LOW);
    Search above = new Search(4, 64, 1, true);
    assertThat(run(above, c -> true)).containsExactly(4.0, 64.0);
    assertThat(above.outcome()).isEqualTo(Capacity.Outcome.HOLDS_AT_HIGH);
  }

  @Test
  void aProbeNeverMeasuredStopsTheSearchInsteadOfRepeatingIt() {
    Search search = new Search(1, 8, 1, true);
    assertThat(search.next()).hasValue(1);
    assertThat(search.next()).isEmpty();
    assertThat(search.outcome()).isEqualTo(Capacity.Outcome.STOPPED);
    assertThatThrownBy(() -> new Search(1, 8, 1, true).record(3, true)).hasMessageContaining("no probe of 3.0");
    assertThatThrownBy(() -> new Search(8, 8, 1, true)).hasMessageContaining("0 < low < high");
  }
}
