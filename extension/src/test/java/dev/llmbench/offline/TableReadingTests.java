package dev.llmbench.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.analysis.Derived;
import dev.llmbench.internal.analysis.Noise;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.server.DeploymentFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables read as a live sweep is: what a summary implies is derived (time per token, rate per request, Little's
 * law, noise from its own spread) and said to be, and the same detectors read drops, latency that falls, knees
 * that recover and each level's stability from it. The tables are made up for the shapes they have.
 */
class TableReadingTests {

  static final DeploymentDescription TP8_PCIE_MLA = new DeploymentDescription("", DeploymentFacts.Interconnect.PCIE, 8, 0, 0,
      0, DeploymentFacts.Attention.MLA, "", "", "");

  static final String CONFIDENCE = "likely, from the facts and the growth of per-request time, not measured per token";

  @TempDir
  Path dir;

  /**
   * The issue's table: 512 tokens per request; C=2 gives 6% less than C=1 while each request takes 2.1x as long
   * with p50 = p99; latency falls by a third from C=4 to C=8; C=16 has no p99, C=32 no p50.
   */
  Path issueTable() throws IOException {
    return Files.writeString(dir.resolve("table.csv"), """
        concurrency,requests,ok,errors,wall,tok/s,lat avg,lat p50,lat p99
        1,4,4,0,33.4,61.3,8.36,8.36,8.36
        2,4,4,0,35.6,57.5,17.80,17.80,17.80
        4,8,8,0,46.4,88.3,23.10,23.00,23.60
        8,16,16,0,29.6,276.6,14.70,14.60,15.10
        16,32,32,0,32.8,499.5,16.30,16.20,
        32,64,64,0,41.5,790.0,20.60,,21.90
        """);
  }

  @Test
  void theIssuesTableReadsItsBoundFromTheFactsAndTheGrowthOfPerRequestTime() throws IOException {
    SweepResult sweep = SweepAnalysis.read(TP8_PCIE_MLA, issueTable());
    Finding scaling = sweep.findings(FindingKind.SCALING).get(0);
    assertThat(scaling.summary()).isEqualTo("32x the concurrency (C=1 to C=32) gave 12.9x the throughput (61.3 to 790.0 "
        + "tok/s): scaling efficiency 40%; each request's time per token grows with the batch (at most 16.4 to 40.3 ms per "
        + "token, derived from E2E latency and 512 tokens per request; no TTFT, so an upper bound), so the deployment is "
        + "bound by tensor-parallel all-reduce over PCIe (TP=8), not by how many requests it batches: " + CONFIDENCE);
    assertThat(scaling.causes().get(0).cause()).isEqualTo("tensor-parallel all-reduce over PCIe");
    assertThat(scaling.causes().get(0).strength()).isEqualTo(Finding.Strength.LIKELY);
    assertThat(scaling.causes().get(0).reason()).endsWith("(" + CONFIDENCE + ")");
    assertThat(scaling.causes()).extracting(Finding.Cause::cause).contains("requests waiting before their first token");
    assertThat(scaling.summary()).doesNotContain("the cause is not told");
    assertThat(scaling.evidence()).anySatisfy(e -> {
      assertThat(e.name()).isEqualTo("time per token at C=1, derived (upper bound)");
      // The table's tokens are tok/s x wall, to the token: 2047 over 4 requests.
      assertThat(e.value()).isCloseTo(8360.0 / (Math.round(61.3 * 33.4) / 4.0 - 1), offset(1e-6));
    });
    Finding knee = sweep.findings(FindingKind.KNEE).get(0);
    assertThat(knee.summary()).startsWith("scaling efficiency first drops below 80% at C=2 (47%): each request's time per "
        + "token grows with the batch (at most 16.4 to 34.9 ms per token").endsWith(CONFIDENCE);
    assertThat(sweep.findings(FindingKind.DIP)).isEmpty();
  }

  /** 6% less throughput with twice the latency and p50 = p99 is signal: the two were served at half speed each. */
  @Test
  void aSmallDropWithLatencyDoublingIsReadAsSignalWithItsPerRequestExplanation() throws IOException {
    SweepResult sweep = SweepAnalysis.read(TP8_PCIE_MLA, issueTable());
    List<Finding> drops = sweep.findings(FindingKind.THROUGHPUT_DROP);
    assertThat(drops).hasSize(1);
    Finding drop = drops.get(0);
    assertThat(drop.summary()).isEqualTo("throughput fell from 61.3 tok/s at C=1 to 57.5 tok/s at C=2, beyond the noise of "
        + "both (±1.0%, ±1.0%, each from its own spread): more load, less done; each request took 2.13x as long for the "
        + "same output (512 tokens; E2E latency median 8.36 to 17.80 s; derived per-request rate 61.2 to 28.8 tok/s): the 2 "
        + "were served at 0.47x the speed each, or one after another (no TTFT to tell)");
    assertThat(drop.causes()).extracting(Finding.Cause::cause).startsWith("contention in the server",
        "tensor-parallel all-reduce over PCIe", "MLA's latent KV cache replicated across TP ranks");
    assertThat(drop.causes().get(0).reason()).isEqualTo("each request's time per token grew 2.13-fold (at most 16.4 to 34.9 "
        + "ms per token, derived from E2E latency and 512 tokens per request; no TTFT, so an upper bound) while the batch "
        + "grew 2.0-fold: the 2 were served at 0.47x the speed of C=1's each");
    assertThat(drop.causes().get(1).reason()).endsWith("(" + CONFIDENCE + ")");
    // Without TTFT a slot limit of 1 looks the same; a handful of requests is a caveat, not ruled out.
    assertThat(drop.causes()).filteredOn(c -> c.strength() == Finding.Strength.POSSIBLE).extracting(Finding.Cause::cause)
        .containsExactly("too few requests at C=2", "a batch or slot limit below C");
    assertThat(drop.causes()).filteredOn(c -> c.cause().equals("too few requests at C=2")).singleElement()
        .satisfies(c -> assertThat(c.reason()).startsWith("4 requests in 2 round(s) of 2 (p50 17.800 s, p99 17.800 s over 4 "
            + "requests, so p99 is their maximum)").endsWith("ramp-up and drain took little of its window, though: by Little's law "
            + "2.00 of 2 were in flight on average"));
    assertThat(drop.ruledOut()).extracting(Finding.Cause::cause).containsExactly("a cold start at C=2");
  }

  @Test
  void latencyThatFallsWithLoadIsReadWithEachRequestsRateAndAColdFirstRoundRuledOut() throws IOException {
    SweepResult sweep = SweepAnalysis.read(TP8_PCIE_MLA, issueTable());
    Finding falls = sweep.findings(FindingKind.LATENCY_FALLS_WITH_LOAD).get(0);
    assertThat(falls.summary()).isEqualTo("latency falls with load from C=4 to C=8 (E2E latency median 23000.0 to 14600.0 "
        + "ms): more load, faster requests, so C=4 was not steady; each request ran at 22.3 tok/s at C=4 and 35.0 tok/s at "
        + "C=8 (derived: tokens / E2E)");
    // Were only C=4's first round slow and the rest as fast as C=8's p99, its mean could be at most (4 x 23.6 + 4 x 15.1) / 8.
    assertThat(falls.ruledOut()).singleElement().satisfies(c -> {
      assertThat(c.cause()).isEqualTo("a cold start at C=4");
      assertThat(c.reason()).isEqualTo("even were its first round of 4 as slow as its slowest request (23.600 s) and its "
          + "other 4 as fast as C=8's p99 (15.100 s), its mean would be 19.350 s, not 23.100 s: more than its first round "
          + "was slow");
    });
    assertThat(sweep.findings(FindingKind.LATENCY_FALLS_WITH_LOAD)).hasSize(1);
  }

  /** Stability per level, from the only spread a table shows; a level without p99 has none to read. */
  @Test
  void eachLevelWithASpreadIsStableOrNotAndSaysHowFewRequestsItRestsOn() throws IOException {
    SweepResult sweep = SweepAnalysis.read(TP8_PCIE_MLA, issueTable());
    assertThat(sweep.findings(FindingKind.STABLE)).extracting(f -> f.levels().get(0))
        .containsExactly("C=1", "C=2", "C=4", "C=8", "C=32");
    assertThat(sweep.findings(FindingKind.STABLE).get(0).summary()).isEqualTo("C=1 is stable: its requests took 8.360 s at "
        + "p50 and 8.360 s at p99 (4 requests, so p99 is their maximum): from that spread its throughput is known to ±1.0%");
    assertThat(sweep.findings(FindingKind.STABLE).get(4).summary()).isEqualTo("C=32 is stable: its requests took 20.600 s "
        + "on average and 21.900 s at p99 (64 requests, so p99 is their maximum): from that spread its throughput is known "
        + "to ±3.8%");
    assertThat(sweep.findings(FindingKind.UNSTABLE)).isEmpty();
    SweepLevelResult c16 = sweep.levels().get(4);
    assertThat(Noise.throughput(c16)).isEqualTo(Noise.ASSUMED);
    assertThat(Derived.of(c16).orElseThrow().line()).endsWith("throughput noise ±5.0% assumed: needs the latency's p99 (or "
        + "another percentile above the median) or its std, over 2 requests or more");
  }

  /**
   * The noise of a level from its spread: 1.96 sigma / (mean sqrt n) + (p99 - p50) / wall, sigma from p99 - p50 over
   * the expected largest of n normal samples (p99 of 8 requests is their maximum, not 2.33 deviations up).
   */
  @Test
  void theNoiseOfALevelComesFromItsOwnSpread() throws IOException {
    SweepLevelResult c4 = SweepAnalysis.read(issueTable()).levels().get(2);
    double blom8 = new org.apache.commons.math3.distribution.NormalDistribution().inverseCumulativeProbability(7.625 / 8.25);
    double sigma = 0.6 / blom8;
    assertThat(Noise.throughput(c4)).isCloseTo(1.96 * sigma / (23.1 * Math.sqrt(8)) + 0.6 / 46.4, offset(1e-4));
    assertThat(Derived.of(c4).orElseThrow().line()).isEqualTo("C=4: 512 output tokens per request (tok/s x wall / ok); time "
        + "per token at most 45.0 ms (E2E median / (tokens - 1); no TTFT, so an upper bound); 22.3 tok/s per request "
        + "(tokens / E2E); 3.98 in flight on average (Little's law: mean E2E x ok / wall); throughput noise ±2.5% from its "
        + "spread (p50 23.000 s, p99 23.600 s over 8 requests, so p99 is their maximum)");
  }

  /** With TTFT the time per token is (E2E - TTFT) / (tokens - 1): here it kept its pace, and the wait is what grew. */
  @Test
  void withTtftTheWaitForTheFirstTokenIsToldFromSlowerDecoding() throws IOException {
    Path csv = Files.writeString(dir.resolve("ttft.csv"), """
        concurrency,requests,failed,wall,tok/s,lat p50,lat p99,lat avg,ttft p50,ttft avg
        1,4,0,33.4,61.3,8.36,8.36,8.36,0.10,0.10
        2,4,0,35.6,57.5,17.80,17.80,17.80,9.54,9.54
        """);
    SweepResult sweep = SweepAnalysis.read(TP8_PCIE_MLA, csv);
    Finding drop = sweep.findings(FindingKind.THROUGHPUT_DROP).get(0);
    assertThat(drop.summary()).endsWith("each waited longer for its first token (TTFT 100.0 to 9540.0 ms) while its time per "
        + "token kept its pace: they were served fewer at a time, not slower");
    assertThat(drop.causes().get(0).cause()).isEqualTo("a wait before the first token: a batch or slot limit below C, or prefill");
    assertThat(drop.causes().get(0).strength()).isEqualTo(Finding.Strength.LIKELY);
    assertThat(drop.causes().get(0).reason()).isEqualTo("TTFT 100.0 to 9540.0 ms, 100.0% of the E2E latency's growth, while "
        + "each request's time per token kept its pace (16.2 to 16.2 ms per token, derived as (E2E - TTFT) / (tokens - 1), "
        + "512 tokens per request)");
    assertThat(drop.ruledOut()).extracting(Finding.Cause::cause).contains("decode steps that slow with the batch");
    assertThat(drop.causes()).extracting(Finding.Cause::cause).doesNotContain("contention in the server",
        "tensor-parallel all-reduce over PCIe");
    Finding scaling = sweep.findings(FindingKind.SCALING).get(0);
    assertThat(scaling.summary()).endsWith("requests wait longer before their first token (TTFT 100.0 to 9540.0 ms) while "
        + "each request's time per token keeps its pace (16.2 to 16.2 ms per token, derived as (E2E - TTFT) / (tokens - 1), "
        + "512 tokens per request): the server runs fewer requests at once than C, or its prefill is the bound");
    assertThat(Derived.of(sweep.levels().get(1)).orElseThrow().line())
        .contains("time per token 16.2 ms ((E2E - TTFT) / (tokens - 1))");
  }

  /** A knee that recovers, with every level's spread narrow: a dip of C=4 in which every round was slow, not its first. */
  @Test
  void aKneeThatRecoversIsADipOfThatLevel() throws IOException {
    Path csv = Files.writeString(dir.resolve("dip.csv"), """
        concurrency,requests,failed,wall,tok/s,lat avg,lat p50,lat p99
        1,4,0,40.0,51.2,10.00,10.00,10.00
        2,8,0,40.0,102.4,10.00,10.00,10.00
        4,16,0,66.67,122.9,16.67,16.60,16.90
        8,32,0,44.44,368.6,11.11,11.10,11.30
        """);
    SweepResult sweep = SweepAnalysis.read(csv);
    assertThat(sweep.findings(FindingKind.KNEE)).isEmpty();
    Finding dip = sweep.findings(FindingKind.DIP).get(0);
    assertThat(dip.summary()).isEqualTo("scaling efficiency dips below 80% at C=4 (60%) and recovers to 90% at C=8: a reading "
        + "of C=4, not a limit of the server");
    assertThat(dip.causes()).extracting(Finding.Cause::cause).containsExactly("too few requests at C=4", "something at C=4 alone");
    assertThat(dip.causes().get(1).reason()).startsWith("every round of it was slow, not its first: its requests took "
        + "16.670 s on average and at most 16.900 s");
    // 16 x (16.90 - 16.67) / 12 = 307 ms at most between its first round and the rest, under 2% of 66.67 s.
    assertThat(dip.ruledOut()).singleElement().satisfies(c -> assertThat(c.reason()).contains("so its first round of 4 was "
        + "at most 306.7 ms slower than the rest: under 2.0% of its 66.670 s window"));
    assertThat(sweep.findings(FindingKind.SCALING).get(0).summary()).endsWith("scaling efficiency 90%; the server batches well "
        + "up to this load");
  }

  @Test
  void aLevelWhoseSlowestRequestsTakeMuchLongerIsUnstable() throws IOException {
    Path csv = Files.writeString(dir.resolve("unstable.csv"), """
        concurrency,requests,failed,wall,tok/s,lat avg,lat p50,lat p99
        1,4,0,40.0,51.2,10.00,10.00,10.00
        4,16,0,52.0,157.5,12.50,11.00,19.80
        """);
    SweepResult sweep = SweepAnalysis.read(csv);
    Finding unstable = sweep.findings(FindingKind.UNSTABLE).get(0);
    assertThat(unstable.summary()).isEqualTo("C=4 is unstable: its slowest requests took 1.8x its median (p99 19.800 s, p50 "
        + "11.000 s; 16 requests, so p99 is their maximum): from that spread its throughput is known to ±36.4%");
    assertThat(unstable.causes()).extracting(Finding.Cause::cause).contains("a cold start at C=4", "too few requests at C=4");
    assertThat(sweep.findings(FindingKind.STABLE)).extracting(f -> f.levels().get(0)).containsExactly("C=1");
  }

  /** Cells missing: without a percentile above the mean no spread, so the noise stays assumed, and each line says why. */
  @Test
  void missingCellsLeaveTheirDerivationsOutAndSayWhatTheyWouldNeed() throws IOException {
    Path csv = Files.writeString(dir.resolve("avg.csv"), """
        concurrency,requests,failed,wall,tok/s,lat avg
        1,4,0,40.0,51.2,10.00
        8,32,0,80.0,204.8,20.00
        """);
    SweepResult sweep = SweepAnalysis.read(csv);
    assertThat(sweep.findings(FindingKind.STABLE)).isEmpty();
    assertThat(sweep.levels()).allSatisfy(l -> assertThat(Noise.throughput(l)).isEqualTo(Noise.ASSUMED));
    assertThat(Derived.of(sweep.levels().get(1)).orElseThrow().line()).isEqualTo("C=8: 512 output tokens per request (tok/s "
        + "x wall / ok); time per token at most 39.1 ms (E2E mean / (tokens - 1); no TTFT, so an upper bound); 25.6 tok/s "
        + "per request (tokens / E2E); 8.00 in flight on average (Little's law: mean E2E x ok / wall); throughput noise "
        + "±5.0% assumed: needs the latency's p99 (or another percentile above the median) or its std, over 2 requests or more");
    // The mean still gives the time per token; without facts the bound stays general, and says how sure it is.
    assertThat(sweep.findings(FindingKind.KNEE).get(0).summary()).endsWith("so the deployment is bound by memory bandwidth "
        + "or the interconnect (on GPUs) or by compute (on CPUs), not by how many requests it batches: likely, from the "
        + "growth of per-request time, not measured per token");
  }

  /** Only throughput: nothing to derive a time per token from, and it says which columns would give one. */
  @Test
  void aTableWithTooFewColumnsSaysWhatItWouldNeed() throws IOException {
    Path csv = Files.writeString(dir.resolve("few.csv"), """
        concurrency,completed,duration,output_throughput
        1,4,33.4,61.3
        32,64,60,800
        """);
    SweepResult sweep = SweepAnalysis.read(csv);
    Finding headline = sweep.findings(FindingKind.SCALING).get(0);
    assertThat(headline.summary()).endsWith("without median TPOT and TTFT at C=1 and C=32 the cause is not told");
    assertThat(headline.nextSteps().get(0)).startsWith("add an E2E latency column (lat avg, lat p50, lat p99), from which the "
        + "time per token is derived, and TTFT (ttft p50), or median_tpot_ms and median_ttft_ms");
    assertThat(Derived.of(sweep.levels().get(0)).orElseThrow().line()).isEqualTo("C=1: 512 output tokens per request (tok/s x "
        + "wall / ok); time per token not derived: needs an E2E latency column (lat avg or lat p50); throughput noise ±5.0% "
        + "assumed: needs an E2E latency column (lat avg, lat p50, lat p99)");
    assertThat(sweep.findings(FindingKind.STABLE)).isEmpty();
  }

  /**
   * Requests as fast at C=8 as at C=4, but the window at C=8 holds 3.56 of 8 in flight by Little's law: the drop is
   * the window's gaps (ramp-up, drain, a client that sent fewer), not the server.
   */
  @Test
  void aWindowLittlesLawFindsHalfEmptyIsTheLikelyCauseOfItsDrop() throws IOException {
    Path csv = Files.writeString(dir.resolve("gaps.csv"), """
        concurrency,requests,failed,wall,tok/s,lat avg,lat p50,lat p99
        4,16,0,40.0,204.8,10.00,10.00,10.10
        8,32,0,90.0,182.0,10.00,10.00,10.10
        """);
    SweepResult sweep = SweepAnalysis.read(csv);
    Finding drop = sweep.findings(FindingKind.THROUGHPUT_DROP).get(0);
    assertThat(drop.causes().get(0).cause()).isEqualTo("too few requests at C=8");
    assertThat(drop.causes().get(0).strength()).isEqualTo(Finding.Strength.LIKELY);
    assertThat(drop.causes().get(0).reason()).isEqualTo("by Little's law 3.56 of 8 were in flight on average (mean E2E x ok / "
        + "wall): ramp-up, drain or gaps between requests took 55.6% of its window");
    assertThat(drop.causes()).extracting(Finding.Cause::cause).doesNotContain("a batch or slot limit below C",
        "contention in the server");
    assertThat(drop.ruledOut()).extracting(Finding.Cause::cause).contains("decode steps that slow with the batch");
    // The knee is read over the same two levels as the headline: its cause is said once, under the headline.
    Finding headline = sweep.findings(FindingKind.SCALING).get(0);
    assertThat(headline.causes().get(0).cause()).isEqualTo("fewer than C in flight");
    Finding knee = sweep.findings(FindingKind.KNEE).get(0);
    assertThat(knee.causes()).isEmpty();
    assertThat(knee.nextSteps()).doesNotContainAnyElementsOf(headline.nextSteps());
  }

  /** Latencies and a window that Little's law says are not of the same requests: no noise is derived from them. */
  @Test
  void aTableWhoseColumnsDisagreeKeepsTheAssumedNoise() throws IOException {
    Path csv = Files.writeString(dir.resolve("odd.csv"), """
        concurrency,requests,failed,wall,tok/s,lat avg,lat p50,lat p99
        1,20,0,3.3,60.0,0.52,0.52,0.53
        """);
    SweepLevelResult c1 = SweepAnalysis.read(csv).levels().get(0);
    assertThat(Noise.throughput(c1)).isEqualTo(Noise.ASSUMED);
    assertThat(Derived.of(c1).orElseThrow().line()).endsWith("throughput noise ±5.0% assumed: by Little's law 3.15 were in "
        + "flight on average (mean E2E x ok / wall), more than C=1: its latencies and its wall are not of the same requests");
  }

  /** vllm bench serve results without --save-detailed read with the same derivations: noise from their std. */
  @Test
  void vllmResultsWithoutPerRequestDataReadWithTheSameDerivations() throws IOException {
    Path runs = Files.createDirectories(dir.resolve("runs"));
    // 20 requests of 512 tokens each; C=1 at 8.36 s, C=2 at 17.80 s: 10240 tokens in 167.2 s and in 178.0 s.
    Files.writeString(runs.resolve("openai-chat-infq-concurrency1-m-20260801-101500.json"), vllm(1, 167.2, 8360, 20, 8400,
        100, (8360 - 100) / 511.0));
    Files.writeString(runs.resolve("openai-chat-infq-concurrency2-m-20260801-101600.json"), vllm(2, 178.0, 17800, 30, 17850,
        110, (17800 - 110) / 511.0));
    SweepResult sweep = SweepAnalysis.read(TP8_PCIE_MLA, runs);
    SweepLevelResult c1 = sweep.levels().get(0);
    assertThat(Noise.throughput(c1)).isEqualTo(Noise.FLOOR);
    Finding drop = sweep.findings(FindingKind.THROUGHPUT_DROP).get(0);
    assertThat(drop.summary()).isEqualTo("throughput fell from 61.2 tok/s at C=1 to 57.5 tok/s at C=2, beyond the noise of "
        + "both (±1.0%, ±1.0%, each from its own spread): more load, less done; each request took 2.13x as long for the "
        + "same output (512 tokens; E2E latency median 8.36 to 17.80 s; derived per-request rate 61.2 to 28.8 tok/s): the 2 "
        + "were served at 0.47x the speed each");
    // vLLM measured TPOT: the decode slowdown is read from it, not derived, and so needs no qualifier.
    assertThat(drop.causes().get(0).cause()).isEqualTo("contention in the server");
    assertThat(drop.causes().get(0).reason()).startsWith("each decode step slowed 2.1-fold (TPOT 16.2 to 34.6 ms)");
    assertThat(sweep.findings(FindingKind.SCALING).get(0).summary()).endsWith("each decode step slows as the batch grows "
        + "(TPOT 16.2 to 34.6 ms), so the deployment is bound by tensor-parallel all-reduce over PCIe (TP=8), not by how "
        + "many requests it batches");
    assertThat(sweep.findings(FindingKind.STABLE).get(0).summary()).isEqualTo("C=1 is stable: its requests took 8.360 s at "
        + "p50 and 8.400 s at p99 (20 requests, so p99 is their maximum): from that spread its throughput is known to ±1.0%");
  }

  /** The same table as printed, cells missing as "-", footnote and starred percentiles included: read as the CSV is. */
  @Test
  void aPrintedTableReadsAsItsCsv() throws IOException {
    Path txt = Files.writeString(dir.resolve("table.txt"), """
        C= 1 |  4/ 4 ok (0 err) | wall= 33.4s |   61.3 tok/s | lat avg= 8.36 p50= 8.36 p99= 8.36*
        C= 2 |  4/ 4 ok (0 err) | wall= 35.6s |   57.5 tok/s | lat avg=17.80 p50=17.80 p99=17.80*
        C= 4 |  8/ 8 ok (0 err) | wall= 46.4s |   88.3 tok/s | lat avg=23.10 p50=23.00 p99=23.60*
        C= 8 | 16/16 ok (0 err) | wall= 29.6s |  276.6 tok/s | lat avg=14.70 p50=14.60 p99=15.10* | ttft avg= -   p99= -
        C=16 | 32/32 ok (0 err) | wall= 32.8s |  499.5 tok/s | lat avg=16.30 p50=16.20 p99= -
        C=32 | 64/64 ok (0 err) | wall= 41.5s |  790.0 tok/s | lat avg=20.60 p50= -   p99=21.90*
        * p99 of fewer than 100 requests is only their maximum
        """);
    SweepResult printed = SweepAnalysis.read(TP8_PCIE_MLA, txt);
    SweepResult csv = SweepAnalysis.read(TP8_PCIE_MLA, issueTable());
    assertThat(printed.levels()).extracting(SweepLevelResult::label).containsExactly("C=1", "C=2", "C=4", "C=8", "C=16", "C=32");
    assertThat(printed.findings()).extracting(Finding::summary).containsExactlyElementsOf(
        csv.findings().stream().map(Finding::summary).toList());
    assertThat(printed.levels().get(4).e2eLatency().percentile(99)).isEmpty();
    assertThat(printed.levels().get(5).e2eLatency().percentile(50)).isEmpty();
  }

  /** A vllm bench serve summary as serve.py writes it, 20 requests of 512 tokens. */
  static String vllm(int concurrency, double duration, long e2eMs, long stdMs, long p99Ms, long ttftMs, double tpotMs) {
    return """
        {"backend": "openai-chat", "num_prompts": 20, "request_rate": "inf", "max_concurrency": %d, "duration": %s,
         "completed": 20, "failed": 0, "total_input_tokens": 2000, "total_output_tokens": 10240,
         "request_throughput": %s, "output_throughput": %s,
         "mean_ttft_ms": %d, "median_ttft_ms": %d, "std_ttft_ms": 2.0, "p99_ttft_ms": %d,
         "mean_tpot_ms": %s, "median_tpot_ms": %s, "std_tpot_ms": 0.1, "p99_tpot_ms": %s,
         "mean_e2el_ms": %d, "median_e2el_ms": %d, "std_e2el_ms": %d, "p99_e2el_ms": %d}
        """.formatted(concurrency, duration, 20 / duration, 10240 / duration, ttftMs, ttftMs, ttftMs + 5, tpotMs, tpotMs,
        tpotMs + 0.2, e2eMs, e2eMs, stdMs, p99Ms);
  }
}
