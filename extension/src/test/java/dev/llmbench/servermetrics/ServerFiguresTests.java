package dev.llmbench.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.internal.report.HtmlSummary;
import dev.llmbench.internal.server.MetricsScraper;
import dev.llmbench.internal.server.PrefixCaches;
import dev.llmbench.internal.server.PrometheusText;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.server.ServerFigures;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.testkit.Levels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The server's figures of a level from /metrics pages in the form vLLM 0.11 (V1 engine) and SGLang print them
 * (src/test/resources/servermetrics: prometheus_client's exposition, their HELP and TYPE lines and label sets), each
 * level's pages read as the scraper reads them: the one before, those during, the one after.
 */
class ServerFiguresTests {

  static String page(String name) throws IOException {
    try (InputStream in = ServerFiguresTests.class.getResourceAsStream("/servermetrics/" + name + ".prom")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static PrometheusText text(String name) throws IOException {
    return PrometheusText.parse(page(name));
  }

  /** vLLM at C=1: speculation accepts 648 of 900 draft tokens in 300 drafts. */
  static ServerMetrics vllmC1() throws IOException {
    return MetricsScraper.read(text("vllm-c1-before"), List.of(text("vllm-c1-during-1"), text("vllm-c1-during-2")),
        text("vllm-c1-after"));
  }

  /** vLLM at C=64: 41 preemptions with the KV cache full, and speculation accepting 1476 of 3600 draft tokens. */
  static ServerMetrics vllmC64() throws IOException {
    return MetricsScraper.read(text("vllm-c1-after"), List.of(text("vllm-c64-during-1"), text("vllm-c64-during-2")),
        text("vllm-c64-after"));
  }

  static ServerMetrics sglangC32() throws IOException {
    return MetricsScraper.read(text("sglang-c32-before"), List.of(text("sglang-c32-during-1"),
        text("sglang-c32-during-2")), text("sglang-c32-after"));
  }

  @Test
  void vllmsCountersAndGaugesGiveEachLevelsSpeculationKvCachePreemptionsAndQueue() throws IOException {
    ServerFigures c1 = ServerFigures.of(vllmC1()).orElseThrow();
    ServerFigures.Speculation s1 = c1.speculation().orElseThrow();
    assertThat(c1.family()).isEqualTo("vllm");
    assertThat(List.of(s1.drafts(), s1.draftTokens(), s1.acceptedTokens())).containsExactly(300L, 900L, 648L);
    assertThat(s1.acceptanceRate()).isCloseTo(648.0 / 900, within(1e-12));
    assertThat(s1.meanAcceptedLength()).isCloseTo(1 + 648.0 / 300, within(1e-12)); // vLLM's convention: the bonus token
    assertThat(c1.kvCacheUsageMean()).isCloseTo((0.021 + 0.023) / 2, within(1e-12));
    assertThat(c1.kvCacheUsagePeak()).isEqualTo(0.023);
    assertThat(c1.preemptions()).isEqualTo(OptionalLong.of(0));

    ServerFigures c64 = ServerFigures.of(vllmC64()).orElseThrow();
    ServerFigures.Speculation s64 = c64.speculation().orElseThrow();
    assertThat(List.of(s64.drafts(), s64.draftTokens(), s64.acceptedTokens())).containsExactly(1200L, 3600L, 1476L);
    assertThat(s64.acceptanceRate()).isCloseTo(0.41, within(1e-12));
    assertThat(s64.meanAcceptedLength()).isCloseTo(2.23, within(1e-12));
    assertThat(c64.preemptions()).isEqualTo(OptionalLong.of(41));
    // Gauge means over the scrapes during the level; the scrape after it, once the batch has drained, is in the peak only.
    assertThat(c64.kvCacheUsageMean()).isCloseTo(0.975, within(1e-12));
    assertThat(c64.kvCacheUsagePeak()).isEqualTo(1.0);
    assertThat(List.of(c64.requestsRunningMean(), c64.requestsRunningPeak(), c64.requestsWaitingMean(),
        c64.requestsWaitingPeak())).containsExactly(61.0, 64.0, 7.5, 9.0);

    PrefixCacheUse cache = PrefixCaches.of(List.of(), vllmC64()).orElseThrow();
    assertThat(List.of(cache.cachedTokens(), cache.promptTokens())).containsExactly(192_000L, 768_000L);
    assertThat(cache.hitRate()).isEqualTo(0.25);
  }

  @Test
  void sglangsGaugesGiveItsAcceptLengthAndRateAndItsRetractionsArePreemptions() throws IOException {
    ServerFigures f = ServerFigures.of(sglangC32()).orElseThrow();
    ServerFigures.Speculation s = f.speculation().orElseThrow();
    assertThat(f.family()).isEqualTo("sglang");
    assertThat(List.of(s.drafts(), s.draftTokens(), s.acceptedTokens())).as("SGLang counts no drafts")
        .containsExactly(-1L, -1L, -1L);
    assertThat(s.acceptanceRate()).isCloseTo(0.63, within(1e-12));
    assertThat(s.meanAcceptedLength()).isCloseTo(2.89, within(1e-12));
    assertThat(f.kvCacheUsageMean()).isCloseTo(0.95, within(1e-12));
    assertThat(f.kvCacheUsagePeak()).isEqualTo(0.99);
    assertThat(f.preemptions()).isEqualTo(OptionalLong.of(7));
    assertThat(List.of(f.requestsRunningMean(), f.requestsRunningPeak(), f.requestsWaitingMean(), f.requestsWaitingPeak()))
        .containsExactly(31.0, 32.0, 3.0, 4.0);
    PrefixCacheUse cache = PrefixCaches.of(List.of(), sglangC32()).orElseThrow();
    assertThat(List.of(cache.cachedTokens(), cache.promptTokens())).containsExactly(5200L, 20_800L);
  }

  /**
   * Pages recorded from llama-server b11669 with a draft model ({@code -md tiny-q4_0.gguf --spec-type draft-simple}),
   * before and after one request of 40 tokens; its own log said "draft acceptance = 0.58696 (27 accepted / 46
   * generated), mean len = 3.25", and its reply's timings {@code draft_n} 46, {@code draft_n_accepted} 27.
   */
  @Test
  void llamaCppsCountersOfVllmsNamesGiveTheSameFiguresItsLogPrints() throws IOException {
    ServerMetrics m = MetricsScraper.read(text("llamacpp-spec-before"), List.of(), text("llamacpp-spec-after"));
    ServerFigures.Speculation s = ServerFigures.of(m).orElseThrow().speculation().orElseThrow();
    assertThat(List.of(s.drafts(), s.draftTokens(), s.acceptedTokens())).containsExactly(12L, 46L, 27L);
    assertThat(s.acceptanceRate()).isCloseTo(0.58696, within(5e-6));
    assertThat(s.meanAcceptedLength()).isEqualTo(3.25);
    assertThat(s.source()).startsWith("llamacpp:spec_decode_num_accepted_tokens_total");
  }

  @Test
  void aServerThatDoesNotSpeculateHasNoSpeculationAndOneWithoutTheseFiguresHasNone() {
    ServerMetrics llama = new ServerMetrics("llamacpp", Map.of("llamacpp:tokens_predicted_total", 40.0),
        Map.of("llamacpp:requests_processing", 2.0, "llamacpp:requests_deferred", 1.0), 3,
        Map.of("llamacpp:requests_processing", 1.5, "llamacpp:requests_deferred", 0.5));
    ServerFigures f = ServerFigures.of(llama).orElseThrow();
    assertThat(f.speculation()).isEmpty();
    assertThat(f.preemptions()).isEmpty();
    assertThat(f.kvCacheUsageMean()).isNaN();
    assertThat(List.of(f.requestsRunningMean(), f.requestsRunningPeak(), f.requestsWaitingMean(), f.requestsWaitingPeak()))
        .containsExactly(1.5, 2.0, 0.5, 1.0);
    assertThat(ServerFiguresText.summary(f)).isEqualTo("running 1.5 mean, 2 peak | waiting 0.5 mean, 1 peak");
    // vLLM with speculation configured but no draft in the level: nothing to read.
    ServerMetrics idle = new ServerMetrics("vllm", Map.of("vllm:spec_decode_num_drafts_total", 0.0,
        "vllm:spec_decode_num_draft_tokens_total", 0.0, "vllm:spec_decode_num_accepted_tokens_total", 0.0), Map.of(), 1);
    assertThat(ServerFigures.of(idle)).isEmpty();
  }

  @Test
  void theLevelsPageHasARowForSpeculationAndOneForTheRest() throws IOException {
    String page = HtmlSummary.level(Levels.closed(64).server(vllmC64()).build());
    assertThat(page).contains("<th>speculative decoding</th><td>acceptance 41.0% (mean accepted length 2.23, 1200 drafts); "
        + "from vllm:spec_decode_num_accepted_tokens_total / vllm:spec_decode_num_draft_tokens_total, 1 + "
        + "vllm:spec_decode_num_accepted_tokens_total / vllm:spec_decode_num_drafts_total</td>",
        "<th>server (vllm)</th><td>KV cache 97.5% mean, 100.0% peak, 41 preemptions, running 61.0 mean, 64 peak, waiting "
            + "7.5 mean, 9 peak</td>");
  }

  @Test
  void assertionsReadTheSameFigures() throws IOException {
    SweepLevelResult c64 = Levels.closed(64).server(vllmC64()).build();
    assertThatThrownBy(() -> LlmBenchAssertions.assertThat(c64).hasNoPreemptions()).isInstanceOf(AssertionError.class)
        .hasMessage("C=64: the server preempted 41 requests with the KV cache 100.0% full at its peak (mean 97.5%)");
    LlmBenchAssertions.assertThat(c64).specDecodeAcceptanceRate().isCloseTo(0.41, within(1e-12));
    SweepLevelResult c1 = Levels.closed(1).server(vllmC1()).build();
    LlmBenchAssertions.assertThat(c1).hasNoPreemptions();
    SweepLevelResult none = Levels.closed(1).build();
    assertThatThrownBy(() -> LlmBenchAssertions.assertThat(none).specDecodeAcceptanceRate())
        .hasMessage("C=1: the server reported no speculative decoding (no draft in the level, or no spec_decode counters)");
  }

  @Test
  void theTableLineAndTheJsonNameEachFigureOnce() throws IOException {
    ServerFigures c64 = ServerFigures.of(vllmC64()).orElseThrow();
    assertThat(ServerFiguresText.summary(c64)).isEqualTo("spec acceptance 41.0% (mean accepted length 2.23, 1200 drafts) "
        + "| KV cache 97.5% mean, 100.0% peak | 41 preemptions | running 61.0 mean, 64 peak | waiting 7.5 mean, 9 peak");
    assertThat(ServerFiguresText.json(c64).toString()).isEqualTo("{\"family\":\"vllm\",\"spec_decode_drafts\":1200,"
        + "\"spec_decode_draft_tokens\":3600,\"spec_decode_accepted_tokens\":1476,\"spec_decode_acceptance_rate\":0.41,"
        + "\"spec_decode_mean_accepted_length\":2.23,\"spec_decode_source\":\"vllm:spec_decode_num_accepted_tokens_total / "
        + "vllm:spec_decode_num_draft_tokens_total, 1 + vllm:spec_decode_num_accepted_tokens_total / "
        + "vllm:spec_decode_num_drafts_total\",\"kv_cache_usage_mean\":0.975,\"kv_cache_usage_peak\":1.0,"
        + "\"preemptions\":41,\"requests_running_mean\":61.0,\"requests_running_peak\":64.0,\"requests_waiting_mean\":7.5,"
        + "\"requests_waiting_peak\":9.0}");
    ServerFigures sglang = ServerFigures.of(sglangC32()).orElseThrow();
    assertThat(ServerFiguresText.summary(sglang)).isEqualTo("spec acceptance 63.0% (mean accepted length 2.89) "
        + "| KV cache 95.0% mean, 99.0% peak | 7 preemptions | running 31.0 mean, 32 peak | waiting 3.0 mean, 4 peak");
  }
}
