package dev.llmbench.internal.analysis;

import static dev.llmbench.internal.analysis.FindingsTests.closed;
import static dev.llmbench.internal.analysis.FindingsTests.of;
import static dev.llmbench.internal.analysis.FindingsTests.only;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.server.MetricsScraper;
import dev.llmbench.internal.server.PrometheusText;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.ServerMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's own figures as findings' evidence, from vLLM's /metrics pages as it prints them
 * (src/test/resources/servermetrics): a level that preempted requests with its KV cache full, and speculation whose
 * acceptance falls from C=1 to C=64.
 */
class ServerFindingsTests {

  static PrometheusText text(String name) throws IOException {
    try (InputStream in = ServerFindingsTests.class.getResourceAsStream("/servermetrics/" + name + ".prom")) {
      return PrometheusText.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  static ServerMetrics vllm(String before, String level) throws IOException {
    return MetricsScraper.read(text(before), List.of(text(level + "-during-1"), text(level + "-during-2")),
        text(level + "-after"));
  }

  static Finding evidence(Finding f, String name, double value) {
    assertThat(f.evidence()).filteredOn(e -> e.name().equals(name)).singleElement()
        .satisfies(e -> assertThat(e.value()).isEqualTo(value));
    return f;
  }

  @Test
  void aLevelThatPreemptedRequestsWithItsKvCacheFullSaysSoWithTheServersCounts() throws IOException {
    SweepLevelResult c64 = closed(64, 3, 100, 1000).server(vllm("vllm-c1-after", "vllm-c64")).build();
    Finding f = only(c64.findings(), FindingKind.PREEMPTION);
    assertThat(f.summary()).isEqualTo("C=64 preempted 41 requests with the KV cache 100.0% full at its peak (mean 97.5%): "
        + "the server freed their KV cache and redid their work, so throughput and latency here include recomputation "
        + "(vllm:num_preemptions_total)");
    assertThat(f.kind().isAnomaly()).isTrue();
    evidence(f, "preemptions at C=64", 41);
    evidence(f, "KV-cache usage at C=64, peak", 1.0);
    evidence(f, "KV-cache usage at C=64, mean", 0.975);
    evidence(f, "server requests waiting at C=64, peak", 9);
    assertThat(f.causes()).first().satisfies(c -> {
      assertThat(c.cause()).isEqualTo("KV-cache pressure");
      assertThat(c.strength()).isEqualTo(Finding.Strength.LIKELY);
    });
    assertThat(f.nextSteps()).first().asString().startsWith("give the KV cache more memory");
  }

  @Test
  void aLevelWithoutPreemptionsHasNoSuchFinding() throws IOException {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).server(vllm("vllm-c1-before", "vllm-c1")).build();
    assertThat(c1.findings()).noneMatch(f -> f.kind() == FindingKind.PREEMPTION);
  }

  @Test
  void speculationWhoseAcceptanceFallsWithLoadIsAFindingCitingTheServersCounters() throws IOException {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).server(vllm("vllm-c1-before", "vllm-c1")).build();
    SweepLevelResult c64 = closed(64, 3, 100, 4000).server(vllm("vllm-c1-after", "vllm-c64")).build();
    Finding f = only(of(c1, c64), FindingKind.SPECULATION_FALLS);
    assertThat(f.summary()).isEqualTo("speculative decoding's acceptance fell with load: 72.0% at C=1 to 41.0% at C=64 "
        + "(mean accepted length 3.16 to 2.23 tokens per step): each step's drafts buy fewer tokens as the batch grows, "
        + "so speculation pays less at C=64");
    assertThat(f.levels()).containsExactly("C=1", "C=64");
    evidence(f, "speculative acceptance rate at C=1", 0.72);
    evidence(f, "speculative acceptance rate at C=64", 0.41);
    evidence(f, "mean accepted length at C=64", 2.23);
    evidence(f, "speculative drafts at C=1", 300);
    evidence(f, "speculative drafts at C=64", 1200);
  }

  @Test
  void acceptanceThatHoldsWithLoadIsNoFinding() throws IOException {
    // The same C=1 counters at both levels: acceptance 72% at each.
    ServerMetrics same = vllm("vllm-c1-before", "vllm-c1");
    List<Finding> found = of(closed(1, 10, 100, 1000).server(same).build(), closed(8, 3, 100, 1000).server(same).build());
    assertThat(found).noneMatch(f -> f.kind() == FindingKind.SPECULATION_FALLS);
    // 15% is the line: 0.72 to 0.62 (13.9% less) is within it.
    ServerMetrics lower = new ServerMetrics("vllm", Map.of("vllm:spec_decode_num_drafts_total", 300.0,
        "vllm:spec_decode_num_draft_tokens_total", 900.0, "vllm:spec_decode_num_accepted_tokens_total", 558.0), Map.of(), 2);
    found = of(closed(1, 10, 100, 1000).server(same).build(), closed(8, 3, 100, 1000).server(lower).build());
    assertThat(found).noneMatch(f -> f.kind() == FindingKind.SPECULATION_FALLS);
  }
}
