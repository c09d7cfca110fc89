package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.result.ClientLoad;
import dev.llmbench.server.DeploymentFacts;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** Findings as data, on levels whose figures are known exactly: each kind, its evidence and its causes. */
class FindingsTests {

  static final WarmupReport WARM = new WarmupReport(4, 0, Map.of(), 20, 4, 4, 1, Duration.ofMillis(200));

  /** A request sent at {@code start} whose first token comes at {@code ttft} and last at {@code e2e}, {@code tokens} in all. */
  static RequestTrace request(long start, long ttft, long e2e, int tokens) {
    long[] at = new long[tokens];
    for (int k = 0; k < tokens; k++) at[k] = ttft + (tokens == 1 ? 0 : k * (e2e - ttft) / (tokens - 1));
    return Traces.at(start).content(at).usage(3, tokens).build();
  }

  /** {@code rounds} whole rounds of C identical requests, one after the other, warmed up. */
  static Levels closed(int c, int rounds, long ttft, long e2e) {
    return Levels.closed(c).maxTokens(20).warmup(WARM)
        .requests(c * rounds, i -> request((i / c) * e2e, ttft, e2e, 20));
  }

  /** Rounds of C requests, request {@code i} shaped by {@code trace} given its round's start. */
  static Levels closedOf(int c, int rounds, IntFunction<RequestTrace> trace) {
    return Levels.closed(c).maxTokens(20).warmup(WARM).requests(c * rounds, trace);
  }

  static List<Finding> of(DeploymentDescription facts, SweepLevelResult... levels) {
    return ScalingAnalysis.all(List.of(levels), facts);
  }

  static List<Finding> of(SweepLevelResult... levels) {
    return of(DeploymentDescription.NONE, levels);
  }

  static Finding only(List<Finding> findings, FindingKind kind) {
    List<Finding> of = findings.stream().filter(f -> f.kind() == kind).toList();
    assertThat(of).as("%s among %s", kind, findings).hasSize(1);
    return of.get(0);
  }

  static List<String> causes(Finding f) {
    return f.causes().stream().map(Finding.Cause::cause).toList();
  }

  static List<String> ruledOut(Finding f) {
    return f.ruledOut().stream().map(Finding.Cause::cause).toList();
  }

  @Test
  void aDropIsJudgedAgainstTheLevelsOwnNoiseNotAFixedShare() {
    // 20 tokens per request. C=2 is 2% below C=2x C=1's rate per stream... compared with C=1 directly:
    // C=1 reads 20 tokens / 1000 ms = 20 tok/s; C=2 reads 2 x 20 / 2040 ms = 19.6 tok/s, 2% less.
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult narrow = closed(2, 10, 100, 2040).build();
    assertThat(of(c1, narrow)).anyMatch(f -> f.kind() == FindingKind.THROUGHPUT_DROP);
    // The same 2% against a level whose requests vary by 40% (a wide interval) is no finding.
    SweepLevelResult wide = closedOf(2, 10, i -> request((i / 2) * 2040L, 100, i % 4 < 2 ? 1640 : 2440, 20)).build();
    assertThat(Noise.throughput(wide)).isGreaterThan(0.05);
    assertThat(of(c1, wide)).noneMatch(f -> f.kind() == FindingKind.THROUGHPUT_DROP);
  }

  @Test
  void aDropAtC2WithoutWarmupNamesTheColdStartAndTheSampleSize() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    // No warm-up at C=2: its first round stalls 6 s before the first token; its later 4 rounds take 1 s each.
    // 200 tokens in 11 s: 18.2 tok/s. Its two slow requests widen its interval past the fall, and explain it.
    SweepLevelResult c2 = coldC2();
    List<Finding> findings = of(c1, c2);
    Finding drop = only(findings, FindingKind.THROUGHPUT_DROP);
    assertThat(drop.summary()).startsWith("throughput fell from 20.0 tok/s at C=1 to 18.2 tok/s at C=2, within C=2's noise")
        .contains("which its cold start makes wide");
    assertThat(causes(drop).get(0)).isEqualTo("a cold start at C=2");
    assertThat(drop.causes().get(0).reason()).contains("first round's TTFT median is 6.100 s").contains("no warm-up");
    assertThat(causes(drop)).contains("too few requests at C=2");
    assertThat(drop.nextSteps().get(0)).contains("@Warmup");
    assertThat(drop.evidence()).extracting(Finding.Evidence::name).contains("output throughput at C=1",
        "output throughput at C=2", "TPOT median at C=2");
    // The decode steps kept their pace (TPOT 47 ms at both): contention is ruled out, not blamed.
    assertThat(causes(drop)).noneMatch(c -> c.contains("contention"));
    assertThat(ruledOut(drop)).contains("decode steps that slow with the batch");
    Finding cold = only(findings, FindingKind.COLD_START);
    assertThat(cold.levels()).containsExactly("C=2");
    assertThat(causes(cold).get(0)).isEqualTo("no warm-up");
  }

  static SweepLevelResult coldC2() {
    return Levels.closed(2).maxTokens(20).requests(10, i -> i < 2 ? request(0, 6100, 7000, 20)
        : request(7000 + ((i - 2) / 2) * 1000L, 100, 1000, 20)).build();
  }

  @Test
  void aHeadlineIsNeverContradictedByTheLevelsOwnTpot() {
    // Efficiency 25% at C=4, but each token comes faster (TPOT 47 to 21 ms): requests wait before their first.
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult c4 = closed(4, 3, 3600, 4000).build();
    Finding headline = only(of(c1, c4), FindingKind.SCALING);
    assertThat(headline.summary()).contains("scaling efficiency 25%").doesNotContain("each decode step slows")
        .contains("requests wait longer before their first token (TTFT 100.0 to 3600.0 ms)");
    assertThat(ruledOut(headline)).contains("decode steps that slow with the batch");
  }

  @Test
  void decodeStepsThatSlowAreReadAsTheBoundAndTheDeploymentNamesIt() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult c8 = closed(8, 3, 100, 4000).build();
    Finding generic = only(of(c1, c8), FindingKind.SCALING);
    assertThat(generic.summary()).contains("each decode step slows as the batch grows (TPOT 47.4 to 205.3 ms)")
        .contains("memory bandwidth or the interconnect");
    assertThat(generic.nextSteps()).anyMatch(s -> s.startsWith("describe the deployment with @DeploymentFacts"));
    DeploymentDescription mlaOnPcie = new DeploymentDescription("8x H20 96GB", DeploymentFacts.Interconnect.PCIE, 8, 0, 0, 0,
        DeploymentFacts.Attention.MLA, "FP8", "vLLM 0.11", "");
    Finding sharp = only(of(mlaOnPcie, c1, c8), FindingKind.SCALING);
    assertThat(sharp.summary()).contains("bound by tensor-parallel all-reduce over PCIe (TP=8)");
    assertThat(causes(sharp)).startsWith("tensor-parallel all-reduce over PCIe", "MLA's latent KV cache replicated across TP ranks");
    assertThat(sharp.nextSteps()).anyMatch(s -> s.contains("TP=4 x DP=2")).anyMatch(s -> s.contains("--enable-dp-attention"));
  }

  @Test
  void latencyThatFallsWithLoadIsReported() {
    // C=1's requests take 1.5 s (first token at 600 ms), C=2's 1 s: more load, faster requests.
    SweepLevelResult c1 = Levels.closed(1).maxTokens(20).requests(10, i -> request(i * 1500L, 600, 1500, 20)).build();
    SweepLevelResult c2 = closed(2, 5, 100, 1000).build();
    Finding falls = only(of(c1, c2), FindingKind.LATENCY_FALLS_WITH_LOAD);
    assertThat(falls.summary()).startsWith("latency falls with load from C=1 to C=2 (E2E latency median 1500.0 to 1000.0 ms; "
        + "TTFT median 600.0 to 100.0 ms)").endsWith("so C=1 was not steady");
    assertThat(causes(falls)).contains("a cold start at C=1");
  }

  @Test
  void aKneeThatRecoversIsADipNotAKnee() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    // Efficiency at C=4: 4 x 20 / 1370 ms = 58.4 tok/s, 73%; at C=8: 8 x 20 / 1136 ms = 140.8 tok/s, 88%.
    SweepLevelResult c4 = closed(4, 3, 100, 1370).build();
    SweepLevelResult c8 = closed(8, 3, 100, 1136).build();
    List<Finding> recovers = of(c1, c4, c8);
    Finding dip = only(recovers, FindingKind.DIP);
    assertThat(dip.summary()).isEqualTo("scaling efficiency dips below 80% at C=4 (73%) and recovers to 88% at C=8: "
        + "a reading of C=4, not a limit of the server");
    assertThat(recovers).noneMatch(f -> f.kind() == FindingKind.KNEE);
    // Efficiency that stays down is a knee.
    SweepLevelResult c8Low = closed(8, 3, 100, 2500).build();
    List<Finding> stays = of(c1, c4, c8Low);
    assertThat(only(stays, FindingKind.KNEE).summary()).startsWith("scaling efficiency first drops below 80% at C=4 (73%)");
    assertThat(stays).noneMatch(f -> f.kind() == FindingKind.DIP);
  }

  @Test
  void throughputThatStopsRisingIsAPlateau() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult c2 = closed(2, 5, 100, 1000).build();
    SweepLevelResult c4 = closed(4, 3, 100, 2000).build();
    SweepLevelResult c8 = closed(8, 3, 100, 4000).build();
    Finding plateau = only(of(c1, c2, c4, c8), FindingKind.PLATEAU);
    assertThat(plateau.summary()).startsWith("throughput stops rising at C=2 (40.0 tok/s): up to C=8 adds nothing beyond noise");
    assertThat(plateau.levels()).containsExactly("C=2", "C=4", "C=8");
  }

  @Test
  void aFirstRoundOutlierIsAColdStartAndAWarmupThatNeverReachedCIsToo() {
    SweepLevelResult cold = Levels.closed(2).maxTokens(20).requests(10, i -> i < 2 ? request(0, 100, 1500, 20)
        : request(1500 + ((i - 2) / 2) * 1000L, 100, 1000, 20)).build();
    Finding f = only(cold.findings(), FindingKind.COLD_START);
    assertThat(f.summary()).startsWith("C=2 may have started cold: its first round's E2E latency median 1.500 s is above "
        + "most settled requests' (the second half's median 1.000 s, max 1.000 s");
    assertThat(f.evidence()).extracting(Finding.Evidence::name).contains("first round E2E latency median",
        "second half E2E latency median");
    WarmupReport short4 = new WarmupReport(4, 0, Map.of(), 2, 4, 2, 3, Duration.ofMillis(30));
    SweepLevelResult shortWarm = closed(4, 3, 100, 1000).warmup(short4).build();
    assertThat(only(shortWarm.findings(), FindingKind.COLD_START).summary())
        .isEqualTo("C=4 may have started cold: its warm-up never had 4 requests in flight together (at most 2)");
    // Steady rounds after a good warm-up: nothing to say.
    assertThat(closed(4, 3, 100, 1000).build().findings()).noneMatch(x -> x.kind() == FindingKind.COLD_START);
  }

  @Test
  void perTokenTimesThatVaryAreUnstable() {
    // One request in five takes 3.2x as long per token (TPOT 152.6 ms against 47.4 ms).
    SweepLevelResult l = closedOf(2, 10, i -> request((i / 2) * 3000L, 100, i % 5 == 0 ? 3000 : 1000, 20)).build();
    Finding f = only(l.findings(), FindingKind.UNSTABLE);
    assertThat(f.summary()).startsWith("C=2 is unstable: one request in ten takes 3.2x the median time per token "
        + "(TPOT p90 152.6 ms, p50 47.4 ms)");
    // The same level with every request alike is not.
    assertThat(closed(2, 10, 100, 1000).build().findings()).noneMatch(x -> x.kind() == FindingKind.UNSTABLE);
  }

  @Test
  void aClientBoundLevelSaysSoAndTheServerIsNotBlamed() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    ClientLoad busy = new ClientLoad(2, Duration.ofSeconds(3), 0.7, 0.02, Duration.ofNanos(20_000), 0.97, 0.99, Duration.ZERO, Duration.ofMillis(30),
        Duration.ofMillis(200), 90_000);
    SweepLevelResult c64 = closed(64, 3, 100, 4000).clientLoad(busy).build();
    List<Finding> findings = of(c1, c64);
    Finding client = only(findings, FindingKind.CLIENT_BOUND);
    assertThat(client.summary()).startsWith("the client may have set C=64's figures: this JVM used 97.0% of its 2 cores");
    Finding headline = only(findings, FindingKind.SCALING);
    assertThat(headline.summary()).contains("the client may have set C=64's figures").doesNotContain("memory bandwidth");
    assertThat(causes(headline)).containsExactly("the client at C=64");
  }

  @Test
  void errorsThatGrowWithLoadNameTheirKind() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult c4 = closedOf(4, 5, i -> i % 5 < 2
        ? Traces.at((i / 4) * 1000L).failed(ErrorKind.HTTP_STATUS, 503, "overloaded").end(10).build()
        : request((i / 4) * 1000L, 100, 1000, 20)).build();
    Finding f = only(of(c1, c4), FindingKind.ERROR_GROWTH);
    assertThat(f.summary()).isEqualTo("errors grow with load: 0.0% failed at C=1, 40.0% at C=4 {HTTP 503=8}");
    assertThat(causes(f)).contains("admission control");
  }

  @Test
  void findingsAreRenderedAsTextWithEvidenceCausesAndSteps() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    String text = only(of(c1, coldC2()), FindingKind.THROUGHPUT_DROP).text();
    assertThat(text.lines()).first().asString().startsWith("throughput fell from 20.0 tok/s at C=1");
    assertThat(text).contains("\n  evidence: output throughput at C=1 = 20 tok/s;").contains("\n  cause 1 (likely): a cold start at C=2: ").contains("\n  cause 2 (possible): too few requests at C=2: ")
        .contains("\n  ruled out: decode steps that slow with the batch: ").contains("\n  try: warm up with the level's own batch");
  }

  @Test
  void theServersGaugesTellABatchLimitFromArrivalsWaitingForAStep() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    // C=8 waits 3 s for its first token, then decodes at C=1's pace: efficiency 25%.
    java.util.function.Function<Double, SweepLevelResult> c8 = running -> closed(8, 3, 3100, 4000)
        .server(new dev.llmbench.server.ServerMetrics("vllm", Map.of(), Map.of("vllm:num_requests_running", running,
            "vllm:num_requests_waiting", 4.0), 10)).build();
    Finding limited = only(of(c1, c8.apply(4.0)), FindingKind.SCALING);
    assertThat(causes(limited).get(0)).isEqualTo("a batch or slot limit below C");
    assertThat(limited.causes().get(0).reason()).startsWith("requests waited in the server's queue (peak 4 waiting, 4 running");
    Finding allRan = only(of(c1, c8.apply(8.0)), FindingKind.SCALING);
    assertThat(ruledOut(allRan)).contains("a batch or slot limit below C");
    assertThat(causes(allRan)).contains("arrivals waiting for the next step, and prefill");
  }

  /**
   * A 2-slot server at C=8: its steps slow as its batch of 2 fills, but the bound is the slots, which its gauges show
   * (llama-server -np 2 read as memory-bound before, by the newuser trial).
   */
  @Test
  void aServerRunningFewerThanCWhileOthersWaitIsBoundByItsSlotsThoughItsStepsSlowed() {
    SweepLevelResult c1 = closed(1, 10, 100, 1000).build();
    SweepLevelResult c8 = closed(8, 3, 3100, 8000).server(new dev.llmbench.server.ServerMetrics("llamacpp", Map.of(),
        Map.of("llamacpp:requests_processing", 2.0, "llamacpp:requests_deferred", 6.0), 10)).build();
    Finding f = only(of(c1, c8), FindingKind.SCALING);
    assertThat(f.summary()).contains("scaling efficiency 13%; the server ran at most 2 of the 8 requests at once while up to 6 waited (its gauges "
        + "at C=8), so it is bound by its batch or slot limit; each decode step also slowed as that batch filled (TPOT "
        + "47.4 to 257.9 ms)").doesNotContain("not by how many requests it batches");
    assertThat(causes(f).get(0)).isEqualTo("a batch or slot limit below C");
  }

  @Test
  void aLevelsOwnFindingsCanBeAssertedOn() {
    SweepLevelResult cold = Levels.closed(2).maxTokens(20).requests(10, i -> i < 2 ? request(0, 100, 1500, 20)
        : request(1500 + ((i - 2) / 2) * 1000L, 100, 1000, 20)).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> dev.llmbench.assertions.LlmBenchAssertions.assertThat(cold)
            .hasNoFindings(FindingKind.COLD_START, FindingKind.CLIENT_BOUND))
        .hasMessageStartingWith("C=2: expected no finding of kind [COLD_START, CLIENT_BOUND] but found 1:")
        .hasMessageContaining("C=2 may have started cold");
    dev.llmbench.assertions.LlmBenchAssertions.assertThat(closed(2, 10, 100, 1000).build()).hasNoFindings(FindingKind.COLD_START);
  }
}
