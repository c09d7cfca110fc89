package dev.llmbench.offline;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.server.DeploymentFacts;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The analysis of what already exists: a CSV table, vLLM's result files, an earlier LLMBench sweep. */
class OfflineAnalysisTests {

  @TempDir
  Path dir;

  /**
   * The table an engineer made by hand of the embedded mla-pcie profile with 10 requests per level: C=4
   * read low (two rounds and one of 2), C=8 recovered. Read as a dip of C=4, with its partial round as the
   * likely cause, not as a knee.
   */
  @Test
  void aTableWithARecoveryAfterTheKneeReadsAsADip() throws IOException {
    Path csv = Files.writeString(dir.resolve("sweep.csv"), """
        C,requests,err,wall,tok/s,lat avg,lat p50,lat p99,ttft avg,ttft p99
        1,10,0,5.4,59.7,0.54,0.53,0.54,0.02,0.03
        2,10,0,2.9,111.3,0.57,0.57,0.58,0.04,0.04
        4,10,0,1.8,176.2,0.61,0.60,0.62,0.05,0.06
        8,16,0,2.4,420.3,0.61,0.61,0.63,0.06,0.07
        """);
    SweepResult sweep = SweepAnalysis.read(csv);
    assertThat(sweep.levels()).extracting(SweepLevelResult::label).containsExactly("C=1", "C=2", "C=4", "C=8");
    SweepLevelResult c1 = sweep.levels().get(0);
    assertThat(c1.outputThroughput().perSecond()).isCloseTo(59.7, offset(0.05));
    assertThat(c1.e2eLatency().mean()).contains(Duration.ofMillis(540));
    assertThat(c1.ttft().percentile(99)).contains(Duration.ofMillis(30));
    assertThat(sweep.findings(FindingKind.KNEE)).isEmpty();
    Finding dip = sweep.findings(FindingKind.DIP).get(0);
    assertThat(dip.summary()).isEqualTo("scaling efficiency dips below 80% at C=4 (74%) and recovers to 88% at C=8: "
        + "a reading of C=4, not a limit of the server");
    assertThat(dip.causes().get(0).cause()).isEqualTo("too few requests at C=4");
    assertThat(dip.causes().get(0).reason()).startsWith("10 requests at C=4 are 2 whole round(s) and one of 2");
    assertThat(sweep).scalingEfficiencyAt(8).isCloseTo(420.3 / (8 * 59.7), offset(1e-3));
  }

  /** The script's table from the issue: throughput only. No cause is ruled in or out on timings it lacks. */
  @Test
  void aTableWithoutTimingsSaysItCannotTellWhy() throws IOException {
    Path csv = Files.writeString(dir.resolve("sweep.csv"), """
        concurrency,completed,duration,output_throughput
        1,4,33.4,61.3
        8,16,29.6,276.6
        32,64,60,800
        """);
    Finding headline = SweepAnalysis.read(csv).findings(FindingKind.SCALING).get(0);
    assertThat(headline.summary()).startsWith("32x the concurrency (C=1 to C=32) gave 13.1x the throughput")
        .endsWith("without median TPOT and TTFT at C=1 and C=32 the cause is not told").doesNotContain("NaN");
    assertThat(headline.ruledOut()).isEmpty();
    assertThat(headline.causes()).extracting(Finding.Cause::cause).containsExactly("a bound the per-token timings would show");
  }

  @Test
  void aTableWithoutLoadOrThroughputSaysWhatItNeeds() throws IOException {
    Path noLoad = Files.writeString(dir.resolve("a.csv"), "requests,wall,tok/s\n10,1.0,50\n");
    assertThatThrownBy(() -> SweepAnalysis.read(noLoad)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(noLoad + " row 2: no concurrency or rate column; expected a header like "
            + "concurrency,requests,failed,wall_s,output_throughput,mean_e2el_ms,p99_e2el_ms,mean_ttft_ms");
    Path noThroughput = Files.writeString(dir.resolve("b.csv"), "concurrency,requests,wall\n1,10,1.0\n");
    assertThatThrownBy(() -> SweepAnalysis.read(noThroughput)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(noThroughput + " row 2: no tok/s (output_throughput) or total_output_tokens column");
    Path missing = dir.resolve("missing");
    assertThatThrownBy(() -> SweepAnalysis.read(missing)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(missing + " does not exist");
  }

  /** vLLM result files as a concurrency loop writes them, one per level, without --save-detailed. */
  @Test
  void vllmResultFilesAreLevels() throws IOException {
    Path runs = Files.createDirectories(dir.resolve("runs"));
    vllm(runs.resolve("openai-chat-infq-concurrency1-Qwen3-8B-20260801-101500.json"), 1, 20, 60.0, 520, 480);
    vllm(runs.resolve("openai-chat-infq-concurrency4-Qwen3-8B-20260801-101600.json"), 4, 20, 58.0, 2200, 2100);
    Files.writeString(runs.resolve("x.pytorch.json"), "[]");
    SweepResult sweep = SweepAnalysis.read(new DeploymentDescription("8x H20", DeploymentFacts.Interconnect.PCIE, 8, 0, 0, 0,
        DeploymentFacts.Attention.MLA, "", "", ""), runs);
    assertThat(sweep.levels()).extracting(SweepLevelResult::label).containsExactly("C=1", "C=4");
    SweepLevelResult c4 = sweep.levels().get(1);
    assertThat(c4.outputThroughput().perSecond()).isCloseTo(58.0, offset(0.01));
    assertThat(c4.tpot().percentile(99)).contains(Duration.ofMillis(2100 / 10));
    assertThat(c4.e2eLatency().mean()).contains(Duration.ofMillis(2200));
    // Throughput fell from 60 to 58 tok/s: within the 5% assumed for a summary, so no drop; TPOT rose 4x.
    assertThat(sweep.findings(FindingKind.THROUGHPUT_DROP)).isEmpty();
    Finding headline = sweep.findings(FindingKind.SCALING).get(0);
    assertThat(headline.summary()).contains("scaling efficiency 24%").contains("tensor-parallel all-reduce over PCIe (TP=8)");
  }

  /** With --save-detailed, every request is made again: steady state, cold starts and intervals as if measured now. */
  @Test
  void detailedVllmResultsAreReadRequestByRequest() throws IOException {
    // C=2, 6 requests in three rounds of 1 s; the first round has its first token 600 ms late.
    StringBuilder starts = new StringBuilder();
    StringBuilder ttfts = new StringBuilder();
    StringBuilder itls = new StringBuilder();
    StringBuilder latencies = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      String sep = i == 0 ? "" : ",";
      double start = 100 + (i / 2) * (i < 2 ? 0 : 1.0) + (i >= 2 ? 0.6 : 0);
      double ttft = i < 2 ? 0.7 : 0.1;
      starts.append(sep).append(String.format(Locale.ROOT, "%.3f", start));
      ttfts.append(sep).append(ttft);
      itls.append(sep).append("[").append(String.join(",", java.util.Collections.nCopies(9, "0.1"))).append("]");
      latencies.append(sep).append(String.format(Locale.ROOT, "%.3f", ttft + 0.9));
    }
    Path file = Files.writeString(dir.resolve("vllm-detailed.json"), """
        {"backend": "openai-chat", "max_concurrency": 2, "request_rate": "inf", "duration": 3.6, "completed": 6,
         "failed": 0, "total_input_tokens": 60, "total_output_tokens": 60, "output_throughput": 16.67,
         "input_lens": [10,10,10,10,10,10], "output_lens": [10,10,10,10,10,10], "errors": ["","","","","",""],
         "start_times": [%s], "ttfts": [%s], "itls": [%s], "latencies": [%s]}
        """.formatted(starts, ttfts, itls, latencies));
    SweepResult sweep = SweepAnalysis.read(file);
    SweepLevelResult c2 = sweep.levels().get(0);
    assertThat(c2.requests()).hasSize(6);
    assertThat(c2.outputTokens()).isEqualTo(60);
    assertThat(c2.ttft().percentile(50)).contains(Duration.ofMillis(100));
    assertThat(c2.tpot().percentile(50)).contains(Duration.ofMillis(100));
    assertThat(c2.steadyState()).isPresent();
    assertThat(c2.findings()).anyMatch(f -> f.kind() == FindingKind.COLD_START
        && f.summary().startsWith("C=2 may have started cold: its first round's TTFT median 700.0 ms"));
  }

  @Test
  void jsonLinesAndSweepSummariesAreRead() throws IOException {
    Path lines = dir.resolve("appended.jsonl.json");
    Files.writeString(lines, vllmJson(1, 10, 50.0, 200, 180).replace("\n", " ") + "\n"
        + vllmJson(2, 10, 95.0, 210, 190).replace("\n", " ") + "\n");
    assertThat(SweepAnalysis.read(lines).levels()).extracting(SweepLevelResult::label).containsExactly("C=1", "C=2");
    Path sweepDir = Files.createDirectories(dir.resolve("exp/SERVE--BENCH--max_concurrency=1"));
    Files.writeString(sweepDir.resolve("run=0.json"), vllmJson(1, 10, 50.0, 200, 180).replace("{", "{\"run_number\": 0,"));
    Files.writeString(sweepDir.resolve("summary.json"), "[" + vllmJson(1, 10, 50.0, 200, 180) + "]");
    assertThat(SweepAnalysis.read(dir.resolve("exp")).levels()).extracting(SweepLevelResult::label).containsExactly("C=1, run=0");
  }

  /** Without per-chunk times a record keeps its first token, first content token and end; the gaps even out. */
  @Test
  void aRecordWithoutChunkTimesKeepsItsFirstTokensAndEnd() {
    assertThat(RunFolder.spread(10, Long.MIN_VALUE, 70, 4, 0)).as("all content").containsExactly(10L, 30L, 50L, 70L);
    assertThat(RunFolder.spread(10, 35, 70, 4, 1)).as("one reasoning chunk").containsExactly(10L, 35L, 53L, 70L);
    assertThat(RunFolder.spread(10, 40, 70, 5, 2)).as("two reasoning chunks").containsExactly(10L, 25L, 40L, 55L, 70L);
    assertThat(RunFolder.spread(10, 40, 70, 4, 0)).as("reasoning told by time").containsExactly(10L, 25L, 40L, 70L);
    assertThat(RunFolder.spread(10, Long.MAX_VALUE, 70, 3, 3)).as("no content token").containsExactly(10L, 40L, 70L);
    assertThat(RunFolder.spread(10, Long.MIN_VALUE, 70, 1, 0)).containsExactly(10L);
  }

  /**
   * A sweep LLMBench ran, read back from its folder, reads as it did. With its chunk timings kept: without
   * them the token gaps read back as their means (see {@code RunFolder.spread}), and a finding that reads
   * token times inside a window (ramp and drain) may then tip the other way on a level near its threshold.
   */
  @Test
  void anEarlierLlmbenchSweepReadsAsItDid() {
    LIVE.clear();
    BenchKit.Run run = BenchKit.run(LiveTestCases.class, "llmbench.report.chunk-timings", "true");
    assertThat(run).passed("C=1", "C=2");
    SweepResult read = SweepAnalysis.read(run.sweepDir(LiveTestCases.class, "sweep"));
    assertThat(read.levels()).extracting(SweepLevelResult::label).containsExactly("C=1", "C=2");
    for (int i = 0; i < 2; i++) {
      SweepLevelResult live = LIVE.get(i);
      SweepLevelResult back = read.levels().get(i);
      assertThat(back.requestCount()).isEqualTo(live.requestCount());
      assertThat(back.outputTokens()).isEqualTo(live.outputTokens());
      assertThat(back.outputThroughput().perSecond()).isCloseTo(live.outputThroughput().perSecond(),
          offset(live.outputThroughput().perSecond() * 1e-3));
      assertThat(back.ttft().percentile(50).orElseThrow().toNanos()).isCloseTo(live.ttft().percentile(50).orElseThrow().toNanos(),
          org.assertj.core.data.Offset.offset(2_000L));
      dev.llmbench.result.WarmupReport w = live.warmup().orElseThrow();
      assertThat(back.warmup()).hasValueSatisfying(b -> {
        assertThat(b).usingRecursiveComparison().ignoringFields("time").isEqualTo(w);
        assertThat(b.time().toNanos()).isCloseTo(w.time().toNanos(), org.assertj.core.data.Offset.offset(1_000L));
      });
      assertThat(back.clientLoad()).isPresent();
      assertThat(Metric.E2E_LATENCY.distributionOf(back).count()).isEqualTo(live.e2eLatency().count());
    }
    assertThat(read.findings()).extracting(Finding::kind).containsExactlyElementsOf(
        dev.llmbench.internal.analysis.ScalingAnalysis.all(LIVE, DeploymentDescription.NONE).stream().map(Finding::kind).toList());
  }

  static final List<SweepLevelResult> LIVE = new ArrayList<>();

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class LiveTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 6)
    @Measurement(rounds = 3)
    void sweep(SweepLevelResult r) {
      LIVE.add(r);
    }
  }

  static void vllm(Path file, int concurrency, int requests, double throughput, long e2eMs, long tpotP99Ms) throws IOException {
    Files.writeString(file, vllmJson(concurrency, requests, throughput, e2eMs, tpotP99Ms));
  }

  /** A vllm bench serve result without --save-detailed, as serve.py writes it (latencies are kept). */
  static String vllmJson(int concurrency, int requests, double throughput, long e2eMs, long tpotP99Ms) {
    double duration = requests * 10 / throughput;
    return """
        {"date": "20260801-101500", "endpoint_type": "openai-chat", "backend": "openai-chat", "label": null,
         "model_id": "Qwen/Qwen3-8B", "tokenizer_id": "Qwen/Qwen3-8B", "num_prompts": %d, "request_rate": "inf",
         "burstiness": 1.0, "max_concurrency": %d, "duration": %s, "completed": %d, "failed": 0,
         "total_input_tokens": %d, "total_output_tokens": %d, "request_throughput": %s, "request_goodput": null,
         "output_throughput": %s, "total_token_throughput": %s, "latencies": [], "queue_times": [],
         "max_output_tokens_per_s": 70.0, "max_concurrent_requests": %d,
         "mean_ttft_ms": 20.0, "median_ttft_ms": 19.0, "std_ttft_ms": 2.0, "p99_ttft_ms": 30.0,
         "mean_tpot_ms": %s, "median_tpot_ms": %s, "std_tpot_ms": 1.0, "p99_tpot_ms": %s,
         "mean_itl_ms": %s, "median_itl_ms": %s, "std_itl_ms": 1.0, "p99_itl_ms": %s,
         "mean_e2el_ms": %d, "median_e2el_ms": %d, "std_e2el_ms": 5.0, "p99_e2el_ms": %d}
        """.formatted(requests, concurrency, duration, requests, requests * 10, requests * 10, requests / duration,
        throughput, throughput * 2, concurrency, tpotP99Ms / 10.0, tpotP99Ms / 10.0, tpotP99Ms / 10.0, tpotP99Ms / 10.0,
        tpotP99Ms / 10.0, tpotP99Ms / 10.0, e2eMs, e2eMs, e2eMs + 10);
  }
}
