package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.analysis.ScalingAnalysis;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whole sweeps against servers with a known fault, read by the analysis as an engineer would: the findings
 * name what went wrong and why, in the report files too.
 */
class ReadingsTests {

  static final List<SweepLevelResult> LEVELS = new ArrayList<>();

  /**
   * A server that does not batch (each token takes 20 ms per request in flight, so C=2 is no faster than
   * C=1) and stalls 2.4 s the first time it runs a batch of 2; C=2 has no warm-up. Its first round is cold,
   * and it reads under half of C=1 (100 tokens in 4.4 s against 50 tok/s): the drop names the cold start and
   * the sample size. The times are long against what a loaded machine adds to each request (the client's
   * send, the stub's wake-ups: once 130 ms a request at load 20, which made 5 ms tokens read 56 tok/s at C=1
   * and left no drop): C=2 reads below C=1 for as long as that stays under 480 ms a request.
   */
  @Test
  void aDropAtC2WithoutWarmupNamesTheWarmupAndTheSampleSize() throws IOException {
    LEVELS.clear();
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(20)).perExtraInFlight(Duration.ofMillis(20))
        .coldStall(Duration.ofMillis(2400)).start()) {
      BenchKit.Run run = BenchKit.run(ColdC2TestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1", "C=2");
      List<Finding> findings = ScalingAnalysis.all(LEVELS, DeploymentDescription.NONE);
      Finding drop = findings.stream().filter(f -> f.kind() == FindingKind.THROUGHPUT_DROP).findFirst()
          .orElseThrow(() -> new AssertionError("no throughput drop among " + findings));
      assertThat(drop.levels()).containsExactly("C=1", "C=2");
      List<String> causes = drop.causes().stream().map(Finding.Cause::cause).toList();
      assertThat(causes.get(0)).as("%s", drop.text()).isEqualTo("a cold start at C=2");
      assertThat(causes).as("%s", drop.text()).contains("too few requests at C=2");
      assertThat(findings).anyMatch(f -> f.kind() == FindingKind.COLD_START && f.levels().equals(List.of("C=2")));
      Path dir = run.sweepDir(ColdC2TestCases.class, "sweep");
      assertThat(Files.readString(dir.resolve("table.txt"))).contains("throughput fell from").contains("likely: a cold start at C=2");
      assertThat(Files.readString(dir.resolve("sweep.json"))).contains("\"kind\" : \"THROUGHPUT_DROP\"")
          .contains("\"cause\" : \"a cold start at C=2\"");
      assertThat(Files.readString(dir.resolve("index.html"))).contains("<b>throughput drop</b>");
    }
  }

  /**
   * A server with vLLM's prefix cache and a prefill cost of 2 ms per uncached prompt token, measured with
   * reuse on: C=1 pays for its prompts, C=2 finds them cached and answers sooner. The analysis reports the
   * latency that falls with load, and the cache as its cause.
   */
  @Test
  void latencyThatFallsWithLoadIsReportedWithThePrefixCacheAsItsCause() {
    LEVELS.clear();
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(5)).prefillPerToken(Duration.ofMillis(2)).start()) {
      assertThat(BenchKit.run(ReuseTestCases.class, "llmbench.base-url", stub.url())).passed("C=1", "C=2");
      List<Finding> findings = ScalingAnalysis.all(LEVELS, DeploymentDescription.NONE);
      Finding falls = findings.stream().filter(f -> f.kind() == FindingKind.LATENCY_FALLS_WITH_LOAD).findFirst()
          .orElseThrow(() -> new AssertionError("no falling latency among " + findings));
      assertThat(falls.summary()).startsWith("latency falls with load from C=1 to C=2").contains("TTFT median");
      assertThat(falls.causes().get(0).cause()).as("%s", falls.text()).isEqualTo("prompts served from the prefix cache at C=2");
    }
  }

  static class ColdC2TestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 10)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      LEVELS.add(r);
    }
  }

  static class ReuseTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 10, inputTokens = 64, prefixCache = Workload.PrefixCache.REUSE)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      LEVELS.add(r);
    }
  }
}
