package dev.llmbench.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * GPU telemetry end to end: a DCGM exporter served from recorded text on 127.0.0.1 beside the embedded engine, its
 * figures in the level's result, table, JSON and HTML; and an exporter that does not answer is a warning on the level.
 */
class GpuTelemetryTests {

  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A DCGM exporter on 127.0.0.1 that answers its first scrape (the one before the level) with the recorded idle page
   * and every later one with the recorded page after load, so that the level's figures are known exactly.
   */
  static final class RecordedExporter implements AutoCloseable {
    final HttpServer http;
    final AtomicInteger scrapes = new AtomicInteger();

    RecordedExporter(String before, String after) throws IOException {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      http.createContext("/metrics", ex -> answer(ex, scrapes.getAndIncrement() == 0 ? before : after));
      http.start();
    }

    String url() {
      return "http://127.0.0.1:" + http.getAddress().getPort() + "/metrics";
    }

    private static void answer(HttpExchange ex, String page) throws IOException {
      byte[] body = page.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }

    @Override
    public void close() {
      http.stop(0);
    }
  }

  static String page(String name) throws IOException {
    try (InputStream in = GpuTelemetryTests.class.getResourceAsStream("/dcgm/" + name + ".prom")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aLevelGetsItsGpuFiguresAndJoulesPerTokenFromADcgmExporter() throws Exception {
    try (RecordedExporter dcgm = new RecordedExporter(page("h100x2-before"), page("h100x2-after"))) {
      BenchKit.Run run = BenchKit.run(OneLevelTestCases.class, "llmbench.telemetry.urls", dcgm.url(),
          "llmbench.telemetry.interval", "100ms");
      assertThat(run).passed("C=2");
      assertThat(dcgm.scrapes.get()).as("scrapes: before, during and after the level").isGreaterThanOrEqualTo(2);
      Path dir = run.sweepDir(OneLevelTestCases.class, "sweep");
      JsonNode level = JSON.readTree(dir.resolve("C=2.json").toFile());
      JsonNode gpu = level.path("llmbench").path("gpu_telemetry");
      // 4 requests of 10 tokens: 40 output tokens. Energy counters: GPU 0 9876543210 to 9878643210 mJ (2100 J), GPU 1
      // 8765432109 to 8767432109 mJ (2000 J): 4100 J, 102.5 J per output token. Every sample during the level is the
      // "after" page: utilisation 99% and 97% (mean 98%), FB used 71544 + 71500 MiB, power 655.5 + 640.0 W.
      assertThat(level.path("total_output_tokens").asLong()).isEqualTo(40);
      assertThat(gpu.path("energy_consumption_j").asDouble()).isCloseTo(4100.0, within(1e-9));
      assertThat(gpu.path("energy_per_output_token_j").asDouble()).isCloseTo(102.5, within(1e-9));
      assertThat(gpu.path("gpu_utilization").asDouble()).isCloseTo(0.98, within(1e-9));
      assertThat(gpu.path("gpu_utilization_busiest").asDouble()).isCloseTo(0.99, within(1e-9));
      assertThat(gpu.path("gpu_memory_used_mib").asDouble()).isEqualTo(143044.0);
      assertThat(gpu.path("gpu_power_usage_w").asDouble()).isCloseTo(1295.5, within(1e-9));
      JsonNode g1 = gpu.path("gpus").get(1);
      assertThat(g1.path("uuid").asText()).isEqualTo("GPU-a93e0d51-7f42-4be8-b3c9-12d8e6f0a477");
      assertThat(g1.path("model_name").asText()).isEqualTo("NVIDIA H100 80GB HBM3");
      assertThat(g1.path("hostname").asText()).isEqualTo("gpu-node-1");
      assertThat(g1.path("energy_source").asText()).isEqualTo("COUNTER");
      assertThat(g1.path("energy_consumption_j").asDouble()).isCloseTo(2000.0, within(1e-9));
      assertThat(level.path("llmbench").path("warnings").toString()).doesNotContain("GPU telemetry");
      assertThat(Files.readString(dir.resolve("table.txt"))).contains("C= 2 | gpu: 2 GPUs (NVIDIA H100 80GB HBM3) | util "
          + "98.0% (busiest 99.0%) | memory 143044 MiB | power 1295.5 W | energy 4100.000 J (counter) | 102.5000 J/token");
      assertThat(Files.readString(dir.resolve("sweep.json"))).contains("\"energy_per_output_token_j\" : 102.5");
      assertThat(Files.readString(dir.resolve("index.html"))).contains("102.5000 J/token");
    }
  }

  @Test
  void anExporterThatDoesNotAnswerIsAWarningOnTheLevelNotAFailure() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed + "/metrics";
    BenchKit.Run run = BenchKit.run(OneLevelTestCases.class, "llmbench.telemetry.urls", url);
    assertThat(run).passed("C=2");
    JsonNode level = JSON.readTree(run.sweepDir(OneLevelTestCases.class, "sweep").resolve("C=2.json").toFile());
    assertThat(level.path("llmbench").has("gpu_telemetry")).isFalse();
    assertThat(level.path("completed").asInt()).isEqualTo(4);
    assertThat(level.path("llmbench").path("warnings").toString()).contains("GPU telemetry: " + url + " did not answer (");
  }

  @Test
  void aTelemetryUrlThatIsNoUrlIsAConfigurationError() {
    BenchKit.Run run = BenchKit.run(OneLevelTestCases.class, "llmbench.telemetry.urls", "gpu-node-1:9400");
    assertThat(run).hasConfigurationError("Configuration error: llmbench.telemetry.urls 'gpu-node-1:9400' (from "
        + "configuration parameter llmbench.telemetry.urls) is not usable: 'gpu-node-1:9400': it needs an http or https "
        + "scheme and a host; write it like http://127.0.0.1:9400/metrics (OneLevelTestCases#sweep)");
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class OneLevelTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 10)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }
}
