package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A finding's causes are said once: a knee whose causes are the headline's points to them instead of listing them. */
class FindingTextTests {

  private static final Finding.Cause BANDWIDTH = new Finding.Cause("memory bandwidth", "TPOT grew 3x", Finding.Strength.LIKELY);
  private static final Finding HEADLINE = new Finding(FindingKind.SCALING, List.of("C=1", "C=8"), "8x the concurrency gave 2x",
      List.of(), List.of(BANDWIDTH), List.of(), List.of("try a larger batch"));
  private static final Finding KNEE = new Finding(FindingKind.KNEE, List.of("C=4"), "scaling efficiency first drops below 80% at C=4",
      List.of(), List.of(), List.of(), List.of());

  @Test
  void aKneeWithoutCausesOfItsOwnPointsToTheHeadlines() {
    assertThat(FindingText.compact(HEADLINE, List.of(HEADLINE, KNEE)))
        .isEqualTo("8x the concurrency gave 2x\n  likely: memory bandwidth: TPOT grew 3x\n  try: try a larger batch");
    assertThat(FindingText.compact(KNEE, List.of(HEADLINE, KNEE)))
        .isEqualTo("scaling efficiency first drops below 80% at C=4\n  causes: those of the scaling finding");
    assertThat(HtmlSummary.findings(List.of(HEADLINE, KNEE))).containsOnlyOnce("memory bandwidth")
        .contains("<b>knee</b>: scaling efficiency first drops below 80% at C=4<div>causes: those of the scaling finding</div>");
  }

  @Test
  void aKneeWithNoHeadlineCausesHasNoPointer() {
    Finding bare = new Finding(FindingKind.SCALING, List.of("C=1", "C=8"), "8x gave 7x", List.of(), List.of(), List.of(), List.of());
    assertThat(FindingText.compact(KNEE, List.of(bare, KNEE))).isEqualTo("scaling efficiency first drops below 80% at C=4");
  }
}
