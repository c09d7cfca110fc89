package dev.llmbench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.Metric;
import dev.llmbench.result.Delta;
import dev.llmbench.internal.compare.Figure;
import dev.llmbench.internal.compare.ComparisonSide;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** vllm bench serve result files as a baseline: fields as serve.py writes them (see docs/metrics.md). */
public class VllmReferenceTests {

  @TempDir
  Path dir;

  /** A --save-detailed result of 4 requests at --max-concurrency 2: 10 tokens each, first after 50 ms, then every 20 ms. */
  public static String detailed(int concurrency, double itlSeconds) {
    double ttft = 0.05;
    double latency = ttft + 9 * itlSeconds;
    String itls = "[" + String.join(", ", Collections.nCopies(9, Double.toString(itlSeconds))) + "]";
    return """
        {"date": "20260801-101500", "backend": "openai-chat", "model_id": "m", "num_prompts": 4,
         "request_rate": "inf", "burstiness": 1.0, "max_concurrency": %d, "duration": %s,
         "completed": 4, "failed": 0, "total_input_tokens": 40, "total_output_tokens": 40,
         "request_throughput": 1.0, "request_goodput": null, "output_throughput": %s,
         "input_lens": [10, 10, 10, 10], "output_lens": [10, 10, 10, 10],
         "ttfts": [%s, %s, %s, %s], "itls": [%s, %s, %s, %s], "latencies": [%s, %s, %s, %s],
         "errors": ["", "", "", ""],
         "mean_ttft_ms": 50.0, "median_ttft_ms": 50.0, "std_ttft_ms": 0.0, "p99_ttft_ms": 50.0}
        """.formatted(concurrency, 2 * latency, 40 / (2 * latency), ttft, ttft, ttft, ttft, itls, itls, itls, itls,
        latency, latency, latency, latency);
  }

  @Test
  void readsADetailedRunAsSamplesKeyedByItsConcurrency() throws IOException {
    Path file = Files.writeString(dir.resolve("openai-chat-infq-concurrency2-m-20260801-101500.json"), detailed(2, 0.02));
    Reference ref = VllmReference.read(file);
    assertThat(ref.byLoad()).containsOnlyKeys("C=2");
    ComparisonSide s = ref.byLoad().get("C=2").sample();
    assertThat(s.outputTokens()).containsExactly(10, 10, 10, 10);
    assertThat(s.latencySeconds().get(Metric.ITL)).hasSize(36).containsOnly(0.02);
    assertThat(s.latencySeconds().get(Metric.TPOT)).hasSize(4).containsOnly(new double[] {0.02}, within(1e-9));
    assertThat(s.samples(Figure.of(Metric.OUTPUT_THROUGHPUT))).isEqualTo(4);
    assertThat(ref.byLoad().get("C=2").origin()).isEqualTo(file.getFileName().toString());
  }

  @Test
  void aSummaryWithoutDetailsGivesPointValuesAndKeepsItsLatencies() throws IOException {
    Path file = Files.writeString(dir.resolve("r.json"), """
        {"request_rate": 4.0, "burstiness": 1.0, "max_concurrency": null, "duration": 10.0, "completed": 40,
         "output_throughput": 512.5, "latencies": [1.0, 1.2, 0.0, 1.1], "median_ttft_ms": 80.0, "p99_ttft_ms": 150.0,
         "median_tpot_ms": 21.5, "median_itl_ms": 20.5, "p99.9_itl_ms": 60.0}
        """);
    Reference ref = VllmReference.read(file);
    ComparisonSide s = ref.byLoad().get("rate=4").sample();
    assertThat(s.points()).containsEntry("output_throughput", 512.5).containsEntry("ttft_p50", 80.0)
        .containsEntry("ttft_p99", 150.0).containsEntry("tpot_p50", 21.5).containsEntry("itl_p50", 20.5)
        .containsEntry("itl_p99.9", 60.0);
    // The failed request's latency of 0 is not a sample.
    assertThat(s.latencySeconds().get(Metric.E2E_LATENCY)).containsExactly(1.0, 1.2, 1.1);
    assertThat(s.outputTokens()).isEmpty();
  }

  @Test
  void readsJsonLinesArraysAndFoldersAndMatchesLevelsByLoad() throws IOException {
    Files.writeString(dir.resolve("appended.json"), detailed(1, 0.02).replace("\n", " ") + "\n"
        + detailed(4, 0.03).replace("\n", " ") + "\n");
    Files.writeString(dir.resolve("summary.json"), "[" + detailed(8, 0.04) + "]");
    Files.writeString(dir.resolve("x.pytorch.json"), "not read");
    Reference ref = VllmReference.read(dir);
    assertThat(ref.byLoad()).containsOnlyKeys("C=1", "C=4", "C=8");
    assertThat(ref.match(Levels.closed(4).requests(2, i -> Traces.at(i).content(10, 20).usage(3, 2).build()).build()))
        .hasValueSatisfying(l -> assertThat(l.sample().latencySeconds().get(Metric.ITL)).containsOnly(0.03));
    assertThat(ref.match(Levels.closed(2).requests(2, i -> Traces.at(i).content(10, 20).build()).build())).isEmpty();
  }

  @Test
  void aLevelComparedWithVllmNamesEachFigureWithItsVerdict() throws IOException {
    Reference ref = VllmReference.read(Files.writeString(dir.resolve("r.json"), detailed(2, 0.02)));
    // Our level: 10 tokens, the first after 50 ms and then every 30 ms: ITL 1.5x vLLM's 20 ms.
    BaselineComparison c = ref.compare(Levels.closed(2).requests(8, i -> Traces.at(i * 400L)
        .content(50, 80, 110, 140, 170, 200, 230, 260, 290, 320).usage(10, 10).build()).build(), ComparisonSide.COMPARED, List.of(50.0), 0.10);
    Map<String, Delta> byFigure = c.deltas().stream().collect(Collectors.toMap(Delta::figure, d -> d));
    assertThat(byFigure.get("ITL p50").change().estimate()).isCloseTo(0.5, within(1e-6));
    assertThat(byFigure.get("ITL p50").verdict()).isEqualTo(Delta.Verdict.REGRESSED);
    assertThat(byFigure.get("TTFT p50").verdict()).isEqualTo(Delta.Verdict.UNCHANGED);
    assertThat(c.source()).contains("vLLM results").contains("(r.json)");
    assertThat(c.hasRegressions()).isTrue();
  }

  @Test
  void aRunThatSentEverythingAtOnceCannotBeMatchedAndSaysWhy() throws IOException {
    Path file = Files.writeString(dir.resolve("r.json"), "{\"request_rate\": \"inf\", \"max_concurrency\": null, \"duration\": 1}");
    assertThatThrownBy(() -> VllmReference.read(file)).hasMessageContaining("neither a finite request_rate nor a max_concurrency");
    assertThatThrownBy(() -> VllmReference.read(dir.resolve("missing.json"))).hasMessageContaining("do not exist");
  }
}
