package dev.llmbench.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class FaultPlanTests {

  @Test
  void parsesPercentagesAndPeriods() {
    FaultPlan plan = FaultPlan.parse(" http500:5%, reset:2.5% ,drop:every5,STALL:1%");
    assertThat(plan.entries()).containsExactly(
        new FaultPlan.Entry(FaultKind.HTTP500, 5, 0), new FaultPlan.Entry(FaultKind.RESET, 2.5, 0),
        new FaultPlan.Entry(FaultKind.DROP, 0, 5), new FaultPlan.Entry(FaultKind.STALL, 1, 0));
    assertThat(plan).hasToString("http500:5%,reset:2.5%,drop:every5,stall:1%");
    assertThat(FaultPlan.parse(plan.toString())).isEqualTo(plan);
    assertThat(FaultPlan.parse("drop:every:5,cut:every 3")).hasToString("drop:every5,cut:every3");
    assertThat(FaultPlan.parse("  ")).isEqualTo(FaultPlan.NONE);
    assertThat(FaultPlan.parse(null).isEmpty()).isTrue();
  }

  @Test
  void everyKindHasASpecName() {
    for (FaultKind kind : FaultKind.values()) {
      assertThat(FaultPlan.parse(kind.spec() + ":every1").kinds()).containsExactly(kind);
    }
  }

  @Test
  void badSpecsNameThePartAndWhatIsAccepted() {
    assertThatThrownBy(() -> FaultPlan.parse("http500:5%,boom:1%"))
        .hasMessageContaining("part 'boom:1%'").hasMessageContaining("'boom' is not a fault kind")
        .hasMessageContaining(FaultKind.accepted());
    assertThatThrownBy(() -> FaultPlan.parse("reset:lots")).hasMessageContaining("part 'reset:lots'")
        .hasMessageContaining("'lots' is not a rate; use a percentage such as 5% or a period such as every5");
    assertThatThrownBy(() -> FaultPlan.parse("reset")).hasMessageContaining("part 'reset': it has no rate");
    assertThatThrownBy(() -> FaultPlan.parse("drop:every0")).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> FaultPlan.parse("drop:0%")).hasMessageContaining("above 0% and at most 100%");
    assertThatThrownBy(() -> FaultPlan.parse("drop:1%,drop:every2")).hasMessageContaining("'drop' appears more than once");
    assertThatThrownBy(() -> FaultPlan.parse("http500:60%,reset:50%")).hasMessageContaining("add up to 110%");
    assertThatThrownBy(() -> FaultPlan.parse("http500:5%,")).hasMessageContaining("part ''");
  }

  @Test
  void periodsGiveExactCountsAndTheFirstMatchingEntryWins() {
    FaultPlan plan = FaultPlan.parse("drop:every5,http500:every3");
    List<Optional<FaultKind>> faults = LongStream.rangeClosed(1, 30).mapToObj(n -> plan.faultFor(n, 0)).toList();
    assertThat(faults.stream().filter(f -> f.equals(Optional.of(FaultKind.DROP)))).hasSize(6);
    assertThat(faults.stream().filter(f -> f.equals(Optional.of(FaultKind.HTTP500)))).hasSize(8); // 15 and 30 drop
    assertThat(faults.get(14)).contains(FaultKind.DROP);
    assertThat(faults.get(0)).isEmpty();
  }

  @Test
  void percentageDrawsRepeatForASeedAndDifferAcrossSeeds() {
    FaultPlan plan = FaultPlan.parse("http500:20%,reset:10%");
    List<Optional<FaultKind>> first = draws(plan, 7);
    assertThat(draws(plan, 7)).isEqualTo(first);
    assertThat(draws(plan, 8)).isNotEqualTo(first);
    long errors = first.stream().filter(f -> f.equals(Optional.of(FaultKind.HTTP500))).count();
    long resets = first.stream().filter(f -> f.equals(Optional.of(FaultKind.RESET))).count();
    // 2,000 draws: 400 and 200 expected; a broken draw (always, never, or one kind only) lands far outside.
    assertThat(errors).isBetween(320L, 480L);
    assertThat(resets).isBetween(140L, 260L);
    assertThat(draws(FaultPlan.parse("silent:100%"), 3)).containsOnly(Optional.of(FaultKind.SILENT));
  }

  private static List<Optional<FaultKind>> draws(FaultPlan plan, long seed) {
    List<Optional<FaultKind>> draws = new ArrayList<>();
    for (long n = 1; n <= 2000; n++) draws.add(plan.faultFor(n, seed));
    return draws;
  }
}
