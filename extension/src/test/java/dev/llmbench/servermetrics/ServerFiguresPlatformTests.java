package dev.llmbench.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A whole run against a server whose /metrics answers with vLLM's recorded pages: the level's server figures and the
 * finding they support in its JSON, its table lines and its page; and, with a price set, what its tokens cost.
 */
class ServerFiguresPlatformTests {

  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aLevelCarriesTheServersFiguresAFindingCitingThemAndItsCostInEveryReport() throws Exception {
    // The scrape before the level gets vLLM's page after C=1, every later one its page in the middle of C=64: the level's
    // deltas are the C=64 page's counters less C=1's, its gauges the C=64 page's.
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(2))
        .metricsPages(ServerFiguresTests.page("vllm-c1-after"), ServerFiguresTests.page("vllm-c64-during-2")).start()) {
      BenchKit.Run run = BenchKit.run(OneLevelTestCases.class, "llmbench.base-url", stub.url(), "llmbench.gpu-count", "8",
          "llmbench.gpu-hour-price", "2.5");
      assertThat(run).passed("C=4");
      Path dir = run.sweepDir(OneLevelTestCases.class, "sweep");
      JsonNode level = JSON.readTree(dir.resolve("C=4.json").toFile()).path("llmbench");
      JsonNode f = level.path("server_figures");
      // Drafts 1200 - 300, draft tokens 3600 - 900, accepted 1476 - 648; preemptions 35 - 0.
      assertThat(f.path("spec_decode_drafts").asLong()).isEqualTo(900);
      assertThat(f.path("spec_decode_draft_tokens").asLong()).isEqualTo(2700);
      assertThat(f.path("spec_decode_accepted_tokens").asLong()).isEqualTo(828);
      assertThat(f.path("spec_decode_acceptance_rate").asDouble()).isCloseTo(828.0 / 2700, within(1e-12));
      assertThat(f.path("spec_decode_mean_accepted_length").asDouble()).isCloseTo(1 + 828.0 / 900, within(1e-12));
      assertThat(f.path("preemptions").asLong()).isEqualTo(35);
      assertThat(f.path("kv_cache_usage_mean").asDouble()).isEqualTo(1.0);
      assertThat(f.path("requests_waiting_peak").asDouble()).isEqualTo(9.0);
      String table = Files.readString(dir.resolve("table.txt"));
      assertThat(table).contains("C= 4 | server figures: spec acceptance 30.7% (mean accepted length 1.92, 900 drafts) | KV cache "
          + "100.0% mean, 100.0% peak | 35 preemptions | running 64.0 mean, 64 peak | waiting 9.0 mean, 9 peak");
      String preempted = "C=4 preempted 35 requests with the KV cache 100.0% full at its peak (mean 100.0%): the server "
          + "freed their KV cache and redid their work, so throughput and latency here include recomputation "
          + "(vllm:num_preemptions_total)";
      assertThat(level.path("findings").toString()).contains("\"kind\":\"PREEMPTION\"", preempted);
      assertThat(table).contains(preempted);
      String html = Files.readString(dir.resolve("index.html"));
      assertThat(html).contains("35 preemptions", preempted);

      // Cost: 8 GPUs at $2.50 an hour over the level's window, over its tokens.
      JsonNode cost = level.path("token_cost");
      JsonNode doc = JSON.readTree(dir.resolve("C=4.json").toFile());
      double window = doc.path("duration").asDouble();
      assertThat(cost.path("gpu_count").asInt()).isEqualTo(8);
      assertThat(cost.path("gpu_hour_price_usd").asDouble()).isEqualTo(2.5);
      assertThat(cost.path("cost_usd").asDouble()).isCloseTo(8 * 2.5 * window / 3600, within(1e-9));
      assertThat(cost.path("cost_per_million_output_tokens_usd").asDouble()).isCloseTo(
          cost.path("cost_usd").asDouble() / doc.path("total_output_tokens").asLong() * 1e6, within(1e-6));
      assertThat(cost.path("cost_per_million_input_tokens_usd").asDouble()).isCloseTo(
          cost.path("cost_usd").asDouble() / doc.path("total_input_tokens").asLong() * 1e6, within(1e-6));
      assertThat(level.path("deployment_facts").path("gpu_count").asInt()).isEqualTo(8);
      assertThat(table.lines().filter(l -> l.startsWith("C= 4 | cost: ")).findFirst().orElseThrow()).matches(
          Messages.pattern("C= 4 | cost: ${n} per 1M output tokens, ${n} per 1M input tokens (8 GPUs at $2.50/GPU-h)"));
    }
  }

  @Test
  void withoutAPriceALevelHasNoCostAndWithoutTheFiguresNoServerLine() throws Exception {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(2)).start()) {
      BenchKit.Run run = BenchKit.run(OneLevelTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=4");
      Path dir = run.sweepDir(OneLevelTestCases.class, "sweep");
      JsonNode level = JSON.readTree(dir.resolve("C=4.json").toFile()).path("llmbench");
      assertThat(level.has("token_cost")).isFalse();
      // The stub's own counters have a queue but no speculation, KV cache or preemptions.
      assertThat(level.path("server_figures").has("spec_decode_acceptance_rate")).isFalse();
      assertThat(level.path("server_figures").has("preemptions")).isFalse();
      assertThat(Files.readString(dir.resolve("table.txt"))).doesNotContain("| cost: ").doesNotContain("preemption");
    }
  }

  @LlmEndpoint
  static class OneLevelTestCases {
    @ConcurrencySweep(4)
    @Workload(maxTokens = 10)
    @Measurement(requests = 8)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      assertThat(level.succeeded()).isEqualTo(8);
    }
  }
}
