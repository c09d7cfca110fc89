package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many bad requests a level may have and still reach its SLO attainment. */
class SloAbortBudgetTests {

  @Test
  void allowedIsTheFloorOfThePlannedTotalTimesOneMinusThePercentile() {
    assertThat(SloAbortBudget.allowed(10, 90)).isEqualTo(1);   // 9 of 10 good is 90%: one may miss
    assertThat(SloAbortBudget.allowed(20, 90)).isEqualTo(2);
    assertThat(SloAbortBudget.allowed(19, 90)).isEqualTo(1);   // 17 of 19 is 89.5%: the second miss already fails
    assertThat(SloAbortBudget.allowed(40, 99)).isZero();       // 39 of 40 is 97.5%
    assertThat(SloAbortBudget.allowed(100, 99)).isEqualTo(1);
    assertThat(SloAbortBudget.allowed(7, 100)).isZero();
    assertThat(SloAbortBudget.allowed(3, 50)).isEqualTo(1);    // 2 of 3 is 66.7%; 1 of 3 would be 33.3%
  }
}
