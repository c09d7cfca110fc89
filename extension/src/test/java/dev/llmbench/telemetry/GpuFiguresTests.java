package dev.llmbench.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.internal.server.PrometheusText;
import dev.llmbench.server.GpuTelemetry;
import dev.llmbench.server.GpuTelemetry.EnergySource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Per-GPU figures from recorded DCGM exporter text (src/test/resources/dcgm: dcgm-exporter's format, its
 * default-counters.csv fields and labels), at known times, against the figures worked out by hand.
 */
class GpuFiguresTests {

  static final URI H100 = URI.create("http://gpu-node-1:9400/metrics");
  static final URI A10G = URI.create("http://ip-10-0-3-17:9400/metrics");
  static final double EXACT = 1e-9;

  /** A recorded page of dcgm-exporter's text. */
  static String page(String name) {
    try (InputStream in = GpuFiguresTests.class.getResourceAsStream("/dcgm/" + name + ".prom")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The pages {@code prefix-before, -during-1, -during-2, -after}, read at {@code seconds} after the first. */
  static List<TelemetrySample> recorded(String prefix, double... seconds) {
    String[] names = {"before", "during-1", "during-2", "after"};
    List<TelemetrySample> samples = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      samples.add(new TelemetrySample((long) (seconds[i] * 1e9), PrometheusText.parse(page(prefix + "-" + names[i]))));
    }
    return samples;
  }

  @Test
  void twoH100sWithTheEnergyCounter() {
    Map<URI, List<TelemetrySample>> samples = Map.of(H100, recorded("h100x2", 0, 1, 2, 3));
    TelemetryReading reading = GpuFigures.read(samples, Map.of(), 2050);
    assertThat(reading.warnings()).isEmpty();
    GpuTelemetry t = reading.gpus().orElseThrow();
    assertThat(t.gpus()).hasSize(2);
    GpuTelemetry.Gpu g0 = t.gpus().get(0);
    assertThat(g0.index()).isEqualTo("0");
    assertThat(g0.uuid()).isEqualTo("GPU-5fb4a7c2-3c1e-8d2a-91f0-6b7e2d4c8a10");
    assertThat(g0.modelName()).isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(g0.hostname()).isEqualTo("gpu-node-1");
    // During the level (the three samples after the first): utilisation 98, 100, 99 %; FB used 71012, 71544, 71544 MiB;
    // power 612.5, 688.0, 655.5 W. Energy counter 9876543210 mJ before, 9878643210 mJ after.
    assertThat(g0.utilisation()).isCloseTo(0.99, within(EXACT));
    assertThat(g0.peakUtilisation()).isCloseTo(1.00, within(EXACT));
    assertThat(g0.memoryUsedMib()).isEqualTo(71544);
    assertThat(g0.powerWatts()).isCloseTo(652.0, within(EXACT));          // (612.5 + 688.0 + 655.5) / 3
    assertThat(g0.energyJoules()).isCloseTo(2100.0, within(EXACT));       // 2,100,000 mJ
    assertThat(g0.energySource()).isEqualTo(EnergySource.COUNTER);
    assertThat(g0.samples()).isEqualTo(3);
    assertThat(g0.span()).isEqualTo(Duration.ofSeconds(3));
    // GPU 1: utilisation 96, 99, 97 %; FB used 70988, 71490, 71500; power 598.25, 671.75, 640.0; counter +2,000,000 mJ.
    GpuTelemetry.Gpu g1 = t.gpus().get(1);
    assertThat(g1.index()).isEqualTo("1");
    assertThat(g1.utilisation()).isCloseTo(292.0 / 300, within(EXACT));
    assertThat(g1.peakUtilisation()).isCloseTo(0.99, within(EXACT));
    assertThat(g1.memoryUsedMib()).isEqualTo(71500);
    assertThat(g1.powerWatts()).isCloseTo(1910.0 / 3, within(EXACT));
    assertThat(g1.energyJoules()).isCloseTo(2000.0, within(EXACT));
    // Summed: 4100 J over 2050 output tokens is 2 J per token.
    assertThat(t.energyJoules()).isCloseTo(4100.0, within(EXACT));
    assertThat(t.joulesPerOutputToken()).hasValueSatisfying(j -> assertThat(j).isCloseTo(2.0, within(EXACT)));
    assertThat(t.memoryUsedMib()).isEqualTo(143044);
    assertThat(t.powerWatts()).isCloseTo(652.0 + 1910.0 / 3, within(EXACT));
    assertThat(t.utilisation()).isCloseTo((0.99 + 292.0 / 300) / 2, within(EXACT));
    assertThat(t.busiestUtilisation()).isCloseTo(0.99, within(EXACT));
  }

  @Test
  void withoutTheEnergyCounterPowerIsIntegratedOverTheSamples() {
    // An A10G whose exporter lacks DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: 60, 140, 150, 146 W at 0, 1, 2, 3.5 s.
    Map<URI, List<TelemetrySample>> samples = Map.of(A10G, recorded("a10g", 0, 1, 2, 3.5));
    GpuTelemetry t = GpuFigures.read(samples, Map.of(), 934).gpus().orElseThrow();
    GpuTelemetry.Gpu g = t.gpus().get(0);
    assertThat(g.energySource()).isEqualTo(EnergySource.INTEGRATED_POWER);
    // (60 + 140) / 2 x 1 + (140 + 150) / 2 x 1 + (150 + 146) / 2 x 1.5 = 100 + 145 + 222 = 467 J
    assertThat(g.energyJoules()).isCloseTo(467.0, within(EXACT));
    assertThat(t.joulesPerOutputToken()).hasValueSatisfying(j -> assertThat(j).isCloseTo(0.5, within(EXACT)));
    assertThat(g.utilisation()).isCloseTo(0.30, within(EXACT));                  // (28 + 32 + 30) / 3 %
    assertThat(g.powerWatts()).isCloseTo(436.0 / 3, within(EXACT));             // (140 + 150 + 146) / 3
    assertThat(g.memoryUsedMib()).isEqualTo(20490);
    assertThat(g.modelName()).isEqualTo("NVIDIA A10G");
  }

  @Test
  void severalEndpointsEachWithTheirGpusAndAWarningForOneThatNeverAnswered() {
    URI dead = URI.create("http://127.0.0.1:1/metrics");
    Map<URI, List<TelemetrySample>> samples = new LinkedHashMap<>();
    samples.put(H100, recorded("h100x2", 0, 1, 2, 3));
    samples.put(A10G, recorded("a10g", 0, 1, 2, 3.5));
    samples.put(dead, List.of());
    Map<URI, List<String>> failures = Map.of(dead, List.of("ConnectException", "ConnectException"),
        A10G, List.of("HTTP 503"));
    TelemetryReading reading = GpuFigures.read(samples, failures, 4567);
    GpuTelemetry t = reading.gpus().orElseThrow();
    assertThat(t.gpus()).extracting(GpuTelemetry.Gpu::endpoint).containsExactly(H100.toString(), H100.toString(),
        A10G.toString());
    assertThat(t.energyJoules()).isCloseTo(2100 + 2000 + 467, within(EXACT));
    assertThat(t.joulesPerOutputToken()).hasValueSatisfying(j -> assertThat(j).isCloseTo(1.0, within(EXACT)));
    assertThat(reading.warnings()).containsExactly(
        "GPU telemetry: 1 of 5 scrapes of " + A10G + " failed (first: HTTP 503); its figures rest on the 4 that answered",
        "GPU telemetry: " + dead + " did not answer (ConnectException), so this level has no GPU figures from it; is the "
            + "exporter running, and is this its /metrics URL?");
  }

  @Test
  void anEndpointWithoutDcgmSeriesIsAWarningNotAFigure() {
    URI vllm = URI.create("http://127.0.0.1:8000/metrics");
    List<TelemetrySample> notGpu = List.of(
        new TelemetrySample(0, PrometheusText.parse("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 3\n")),
        new TelemetrySample(1, PrometheusText.parse("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 4\n")));
    TelemetryReading reading = GpuFigures.read(Map.of(vllm, notGpu), Map.of(), 10);
    assertThat(reading.gpus()).isEmpty();
    assertThat(reading.warnings()).singleElement().asString().contains("answered but gave none of DCGM_FI_DEV_GPU_UTIL");
  }

  @Test
  void labelsAreReadWithTheirEscapesAndSpaces() {
    assertThat(Labels.of("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\", UUID=\"GPU-604a\",modelName=\"A \\\"quoted\\\" name\"}"))
        .containsEntry("gpu", "0").containsEntry("UUID", "GPU-604a").containsEntry("modelName", "A \"quoted\" name");
  }
}
