package dev.llmbench.internal.analysis;

import static dev.llmbench.internal.analysis.FindingsTests.causes;
import static dev.llmbench.internal.analysis.FindingsTests.closed;
import static dev.llmbench.internal.analysis.FindingsTests.of;
import static dev.llmbench.internal.analysis.FindingsTests.only;
import static dev.llmbench.internal.analysis.FindingsTests.ruledOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.GpuTelemetry;
import dev.llmbench.server.ServerMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The GPUs' telemetry as evidence: GPUs busy nearly all the time are the bound; GPUs idle while requests queue are not. */
class GpuFindingsTests {

  static GpuTelemetry gpus(double utilisation, long outputTokens) {
    GpuTelemetry.Gpu g = new GpuTelemetry.Gpu("http://127.0.0.1:9400/metrics", "0", "GPU-1", "NVIDIA H100 80GB HBM3", "n1",
        utilisation, utilisation, 70000, 650, 1300, GpuTelemetry.EnergySource.COUNTER, 4, Duration.ofSeconds(2));
    return new GpuTelemetry(List.of(g), outputTokens);
  }

  static Finding evidenceNamed(Finding f, String name, double value) {
    assertThat(f.evidence()).filteredOn(e -> e.name().equals(name)).singleElement()
        .satisfies(e -> assertThat(e.value()).isEqualTo(value));
    return f;
  }

  @Test
  void aLevelAt99PercentGpuUtilisationIsComputeBound() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult c8 = closed(8, 3, 100, 4000).gpus(gpus(0.99, 480)).build(); // decode steps slow: TPOT rises
    Finding f = only(of(c1, c8), FindingKind.SCALING);
    assertThat(f.summary()).contains("(GPUs 99.0% busy at C=8: compute-bound)");
    assertThat(causes(f)).contains("GPU compute");
    assertThat(f.causes()).filteredOn(c -> c.cause().equals("GPU compute")).singleElement()
        .satisfies(c -> assertThat(c.strength()).isEqualTo(Finding.Strength.LIKELY));
    evidenceNamed(f, "GPU utilisation at C=8, mean", 0.99);
    evidenceNamed(f, "GPU energy per output token at C=8", 1300.0 / 480);
  }

  @Test
  void aLevelAt30PercentWithALongQueueIsNotComputeBound() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    // C=8 waits 3 s for its first token, then decodes at C=1's pace, with 6 requests waiting and GPUs 30% busy.
    SweepLevelResult c8 = closed(8, 3, 3100, 4000).server(new ServerMetrics("vllm", Map.of(),
        Map.of("vllm:num_requests_running", 2.0, "vllm:num_requests_waiting", 6.0), 10)).gpus(gpus(0.30, 480)).build();
    Finding f = only(of(c1, c8), FindingKind.SCALING);
    assertThat(f.summary()).contains("(GPUs only 30.0% busy at C=8 with 6 requests waiting: not compute-bound)");
    assertThat(ruledOut(f)).contains("GPU compute");
    assertThat(causes(f)).contains("a limit before the GPUs", "a batch or slot limit below C");
    assertThat(f.causes()).filteredOn(c -> c.cause().equals("a limit before the GPUs")).singleElement()
        .satisfies(c -> assertThat(c.reason()).startsWith("requests waited in the server's queue (peak 6) while the GPUs "
            + "were idle 70.0% of the time"));
    evidenceNamed(f, "GPU utilisation at C=8, mean", 0.30);
  }

  @Test
  void withoutTelemetryNothingIsSaidOfTheGpus() {
    Finding f = only(of(closed(1, 10, 100, 1000).build(), closed(8, 3, 100, 4000).build()), FindingKind.SCALING);
    assertThat(f.summary()).doesNotContain("busy").doesNotContain("compute-bound");
    assertThat(f.evidence()).noneMatch(e -> e.name().startsWith("GPU"));
  }
}
