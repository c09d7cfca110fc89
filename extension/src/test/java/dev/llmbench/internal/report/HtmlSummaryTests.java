package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import org.junit.jupiter.api.Test;

/** A level's latency table draws the metrics it has values of, and no empty row for the others. */
class HtmlSummaryTests {

  private static final String TOOL_ROW = "<tr><td>time to first tool call</td>";
  private static final String TTFT_ROW = "<tr><td>TTFT</td>";
  private static final String E2E_ROW = "<tr><td>E2E latency</td>";

  @Test
  void aLevelWithoutToolCallsHasNoToolCallRow() {
    MeasuredLevel level = Levels.closed(1).request(Traces.at(0).content(20, 40).usage(10, 2).build())
        .request(Traces.at(50).content(70, 90).usage(10, 2).build()).build();
    assertThat(HtmlSummary.distributionTable(level)).contains(TTFT_ROW, E2E_ROW).doesNotContain(TOOL_ROW);
  }

  @Test
  void aLevelWithAToolCallHasItsRowWithItsCount() {
    MeasuredLevel level = Levels.closed(1).request(Traces.at(0).toolCall(30).content(40).usage(10, 2).build())
        .request(Traces.at(50).content(70, 90).usage(10, 2).build()).build();
    assertThat(HtmlSummary.distributionTable(level)).contains(TTFT_ROW, TOOL_ROW + "<td>1</td><td>30.0</td>");
  }

  @Test
  void anEmbeddingsLevelHasNoStreamingRows() {
    MeasuredLevel level = Levels.closed(1).request(Traces.at(0).usage(12, 0).embeddings(2).end(25).build()).build();
    assertThat(HtmlSummary.distributionTable(level)).contains(E2E_ROW + "<td>1</td><td>25.0</td>")
        .doesNotContain(TTFT_ROW, "<tr><td>ITL</td>", "<tr><td>TPOT</td>", TOOL_ROW);
  }
}
