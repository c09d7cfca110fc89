package dev.llmbench.workload;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.AfterSweep;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.client.RequestResult;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.Rate;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Embeddings as a sweep's workload, run through the Jupiter engine against the embedded engine's
 * {@code /v1/embeddings}: latency, inputs and tokens per second at each level, no streaming figures, and a server
 * without the route refused before load with what to start it with.
 */
class EmbeddingsSweepTests {

  @Test
  void eachLevelReportsLatencyInputsAndTokensPerSecondAndNoStreamingFigures() throws java.io.IOException {
    BenchKit.Run run = BenchKit.run(BatchTestCases.class);
    assertThat(run).passed("C=1", "C=3", "noScalingFindings (after the sweep)");
    // No output tokens: the run's overview gives the sweep's peak in embedded texts per second, not "peak 0.0 tok/s".
    String overview = java.nio.file.Files.readString(run.reportDir().resolve("index.html"));
    assertThat(overview).containsPattern("<td>peak [0-9.]+ inputs/s at C=[13]</td>").doesNotContain("tok/s at C=");
  }

  @Test
  void aServerWithoutTheRouteFailsTheLevelBeforeLoadNamingTheFix() {
    BatchTestCases.ran = false;
    BenchKit.Run run = BenchKit.run(BatchTestCases.class, "llmbench.embedded.embeddings", "false");
    for (String level : new String[] {"C=1", "C=3"}) {
      assertThat(run).level(level).failedWith(ExtensionConfigurationException.class).hasMessageMatching(Messages.pattern(
          "Configuration error: sweep on method [BatchTestCases#sweep], " + level + ": @Embeddings sends to POST "
              + "/v1/embeddings, but http://127.0.0.1:{n}/v1/embeddings answered HTTP 404: Not Found, so no load was sent: "
              + "serve embeddings there (llama-server --embeddings --pooling mean; vLLM with an embedding model, --runner "
              + "pooling), or remove @Embeddings"));
    }
    assertThat(BatchTestCases.ran).as("the sweep method's body").isFalse();
  }

  @Test
  void embeddingsWithToolsIsAConfigurationError() {
    BenchKit.Run run = BenchKit.run(WithToolsTestCases.class);
    assertThat(run).hasConfigurationError("Configuration error: sweep on method [WithToolsTestCases#sweep]: @Embeddings "
        + "requests generate nothing to call tools with or to answer in JSON: remove @ToolCalls and @StructuredOutput from "
        + "this sweep, or @Embeddings");
    assertThat(run.tests().started().count()).isZero();
  }

  static class BatchTestCases {
    static volatile boolean ran;

    @ConcurrencySweep({1, 3})
    @Embeddings(batchSize = 4)
    @Workload(inputTokens = 64)
    @Measurement(requests = 9)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      ran = true;
      assertThat(r).hasNoErrors();
      // Every request carried 4 inputs: inputs per second are 4 times the requests per second over the same window.
      assertThat(r.inputThroughput().perSecond()).isCloseTo(4 * r.requestThroughput().perSecond(),
          org.assertj.core.data.Offset.offset(1e-9 * r.requestThroughput().perSecond()));
      assertThat(r.inputThroughput().unit()).isEqualTo(Rate.Unit.INPUTS);
      assertThat(r.outputTokens()).isZero();
      // 64 words and a marker each, as the engine counts them.
      assertThat(r.promptTokens()).isGreaterThanOrEqualTo(9L * 4 * 64);
      assertThat(r.totalTokenThroughput().perSecond()).isCloseTo(r.promptTokens() * 1e9 / r.window().toNanos(),
          org.assertj.core.data.Offset.offset(1e-6 * r.totalTokenThroughput().perSecond()));
      assertThat(r.ttft().isEmpty()).isTrue();
      assertThat(r.itl().isEmpty()).isTrue();
      assertThat(r.tpot().isEmpty()).isTrue();
      assertThat(r.e2eLatency().count()).isEqualTo(9);
      // Each request waited at least its own pooling pass, as the engine times it.
      for (RequestResult q : r.requests()) {
        Duration pass = PerformanceProfile.GQA_DENSE.stepTime(4, q.promptTokens());
        assertThat(q.e2eLatency()).isGreaterThanOrEqualTo(pass);
      }
      assertThat(r).e2eLatency().percentile(50).isGreaterThan(Duration.ZERO);
    }

    /** Scaling is read off output tokens, which embeddings have none of: no "0.0x the throughput" about them. */
    @AfterSweep("sweep")
    void noScalingFindings(SweepResult sweep) {
      if (!ran) return; // the route-less run fails its levels before load: nothing to read
      assertThat(sweep.findings()).extracting(Finding::kind).doesNotContain(FindingKind.SCALING, FindingKind.KNEE,
          FindingKind.PLATEAU, FindingKind.THROUGHPUT_DROP);
    }
  }

  static class WithToolsTestCases {
    @ConcurrencySweep(1)
    @Embeddings
    @ToolCalls(file = ToolCallSweepTests.AGENTS + "tools.json")
    void sweep(SweepLevelResult r) {}
  }
}
