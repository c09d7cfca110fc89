package dev.llmbench.internal.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.Metric;
import dev.llmbench.internal.vllm.VllmRun.Array;
import dev.llmbench.result.LoadShape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader of vllm bench serve results: names as serve.py writes them, one rule for a failed request. */
class VllmResultFilesTests {

  @TempDir
  Path dir;

  @Test
  void aDetailedRunFailsARequestByItsErrorEvenWithALatency() throws IOException {
    Path file = Files.writeString(dir.resolve("openai-chat-infq-concurrency2-m-20260801-101500.json"), """
        {"request_rate": "inf", "max_concurrency": null, "duration": 2.0, "completed": 1, "failed": 1,
         "total_input_tokens": 10, "total_output_tokens": 3, "output_throughput": 1.5, "request_throughput": 0.5,
         "max_output_tokens_per_s": 2.0, "request_goodput": null, "mean_ttft_ms": 50.0, "p99_ttft_ms": 60.0,
         "p99.9_itl_ms": 21.0, "mean_client_queue_time_ms": 1.0,
         "input_lens": [10, 12], "output_lens": [3, 0], "ttfts": [0.05, 0.0], "itls": [[0.02, 0.02], []],
         "latencies": [0.09, 0.4], "start_times": [1.0, 1.1], "errors": ["", "Bad Request"]}
        """);
    VllmRun run = VllmResultFiles.runs(file).get(0);
    assertThat(run.load()).contains(new LoadShape.ClosedLoop(2));
    assertThat(run.completed()).isEqualTo(1);
    assertThat(run.failed()).isEqualTo(1);
    assertThat(run.values()).containsOnlyKeys(Metric.OUTPUT_THROUGHPUT, Metric.REQUEST_THROUGHPUT, Metric.PEAK_OUTPUT_THROUGHPUT);
    assertThat(run.statistics()).containsOnlyKeys(Metric.TTFT, Metric.ITL);
    assertThat(run.statistics().get(Metric.TTFT)).containsEntry("mean", 50.0).containsEntry("p99", 60.0);
    assertThat(run.statistics().get(Metric.ITL)).containsEntry("p99.9", 21.0);
    assertThat(run.has(Array.values())).isTrue();
    assertThat(run.requests()).extracting(VllmRun.Request::failed).containsExactly(false, true);
    assertThat(run.requests().get(1).error()).isEqualTo("Bad Request");
    assertThat(run.succeeded()).singleElement().satisfies(r -> {
      assertThat(r.itlSeconds()).containsExactly(0.02, 0.02);
      assertThat(r.inputTokens()).isEqualTo(10);
      assertThat(r.startSeconds()).isEqualTo(1.0);
    });
  }

  @Test
  void withoutSaveDetailedARequestFailedWhenItsLatencyIsZero() throws IOException {
    Path file = Files.writeString(dir.resolve("r.json"), """
        {"request_rate": 4.0, "burstiness": 0.5, "duration": 10.0, "completed": 2, "failed": 1,
         "total_output_tokens": 50, "latencies": [1.0, 0.0, 1.2]}
        """);
    VllmRun run = VllmResultFiles.run(VllmResultFiles.objects(file).get(0), file);
    assertThat(run.arrays()).isEmpty();
    assertThat(run.has(Array.TTFTS)).isFalse();
    assertThat(run.requests()).extracting(VllmRun.Request::failed).containsExactly(false, true, false);
    assertThat(run.outputThroughput()).isEqualTo(5.0);
    assertThat(run.load()).hasValueSatisfying(l -> assertThat(l).isInstanceOf(LoadShape.OpenLoop.class));
  }

  @Test
  void aFolderIsItsJsonFilesWithoutThePyTorchCopies() throws IOException {
    Files.writeString(dir.resolve("b.json"), "{}");
    Files.writeString(dir.resolve("a.json"), "{}");
    Files.writeString(dir.resolve("a.pytorch.json"), "[]");
    Files.writeString(dir.resolve("notes.txt"), "");
    assertThat(VllmResultFiles.files(dir)).containsExactly(dir.resolve("a.json"), dir.resolve("b.json"));
    assertThat(VllmResultFiles.files(dir.resolve("notes.txt"))).containsExactly(dir.resolve("notes.txt"));
  }

  @Test
  void summaryJsonIsOneRunPerElement() throws IOException {
    Path file = Files.writeString(dir.resolve("summary.json"), """
        [{"max_concurrency": 1, "duration": 1, "completed": 1, "run_number": 0},
         {"max_concurrency": 2, "duration": 1, "completed": 2, "run_number": 1}]
        """);
    List<VllmRun> runs = VllmResultFiles.runs(file);
    assertThat(runs).extracting(r -> r.runNumber().getAsInt()).containsExactly(0, 1);
    assertThat(runs).extracting(VllmRun::load).containsExactly(java.util.Optional.of(new LoadShape.ClosedLoop(1)),
        java.util.Optional.of(new LoadShape.ClosedLoop(2)));
  }
}
