package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredFiguresTests {

  @Test
  void aLevelLeavesEverySingleValueAndItsLatenciesStatistics() {
    // C=2, four rounds of two requests, each 100 tokens in 1 s: 200 tok/s.
    SweepLevelResult level = Levels.closed(2).requests(8, i -> Traces.at((i / 2) * 1000L).content(1, 1000).usage(1, 100)
        .build()).maxTokens(100).build();
    Map<String, StoredFigure> figures = StoredFigures.of(level);
    assertThat(figures.get("output_throughput")).isEqualTo(new StoredFigure(200.0, "tok/s"));
    assertThat(figures.get("error_rate")).isEqualTo(new StoredFigure(0.0, "fraction"));
    assertThat(figures.get("e2el.p50")).isEqualTo(new StoredFigure(1000.0, "ms"));
    assertThat(figures).containsKeys("ttft.mean", "ttft.p50", "ttft.p90", "ttft.p99", "e2el.mean", "request_throughput");
    // No queue in a closed loop, no tool calls: no figure rather than a zero.
    assertThat(figures).doesNotContainKeys("tool_call_ttft.p50");
  }

  @Test
  void namesAndLabels() {
    assertThat(StoredFigures.name(Metric.OUTPUT_THROUGHPUT)).isEqualTo("output_throughput");
    assertThat(StoredFigures.name(Metric.TTFT, 99)).isEqualTo("ttft.p99");
    assertThat(StoredFigures.name(Metric.ITL, 99.9)).isEqualTo("itl.p99.9");
    assertThat(StoredFigures.label("ttft.p99")).isEqualTo("TTFT p99");
    assertThat(StoredFigures.label("output_throughput")).isEqualTo("output throughput");
    assertThat(StoredFigures.label("custom_score")).isEqualTo("custom score");
    assertThatThrownBy(() -> StoredFigures.name(Metric.TTFT))
        .hasMessage("TTFT is a latency distribution: name a statistic, as name(TTFT, 99)");
  }
}
