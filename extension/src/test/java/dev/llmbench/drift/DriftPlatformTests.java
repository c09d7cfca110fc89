package dev.llmbench.drift;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Drift through the JUnit Platform against the embedded engine, whose greedy replies and logprobs are known exactly
 * (engine {@code TokenLogprobs}): every token is its distribution's top-1 with probability 1/2, the alternatives 1/4,
 * 1/8, ...; {@code instant+diverge=N} answers as {@code instant} up to token N, picks the reference's second choice there
 * (the two swap probabilities) and goes on with other words. So against {@code instant}, on prompts whose replies are
 * longer than {@code maxTokens}: none identical, exactly N leading tokens in common, top-1 agreement N/(N+1) over the
 * N+1 positions of the same context, and KL divergence 0 at N of them and (1/2 - 1/4) ln 2 = ln 2 / 4 at the last.
 */
class DriftPlatformTests {

  private static final double KL_AT_SWAP = Math.log(2) / 4;

  @Test
  void aCandidateThatDivergesAtToken5ShowsExactlyTheDriftTheEngineWasGiven() throws IOException {
    BenchKit.Run run = BenchKit.run(KnownDriftTestCases.class);
    assertThat(run).passed("C=1 · ref", "C=1 · same", "C=1 · drifts", "C=4 · ref", "C=4 · same", "C=4 · drifts");
    Path dir = run.sweepDir(KnownDriftTestCases.class, "drift");
    String table = Files.readString(dir.resolve("table.txt"));
    assertThat(table).contains("C=1 · ref | drift: the reference, 12 replies kept",
        "C=1 · same | drift vs ref: 12/12 replies identical (100.0% [100.0%, 100.0%]), 32.0 of 32.0 leading tokens in common "
            + "[32.0, 32.0], top-1 agreement 100.0% [100.0%, 100.0%], mean KLD 0 [0, 0] over 384 positions "
            + "(p99 0, max 0; top-k holds 96.9% of the reference's probability)",
        "C=1 · drifts | drift vs ref: 0/12 replies identical (0.0% [0.0%, 0.0%]), 5.0 of 32.0 leading tokens in common "
            + "[5.0, 5.0], top-1 agreement 83.3% [83.3%, 83.3%], mean KLD 0.0289 [0.0289, 0.0289] over 72 positions "
            + "(p99 0.1733, max 0.1733; top-k holds 96.9% of the reference's probability)",
        "drift against ref (builtin, greedy, max_tokens 32):");
    JsonNode sweep = new ObjectMapper().readTree(dir.resolve("sweep.json").toFile()).path("drift");
    JsonNode drifts = sweep.path("candidates").get(1);
    assertThat(drifts.path("candidate").asText()).isEqualTo("drifts");
    assertThat(drifts.path("mean_kld").asDouble()).isCloseTo(KL_AT_SWAP / 6, within(1e-9));
    assertThat(drifts.path("max_kld").asDouble()).isCloseTo(KL_AT_SWAP, within(1e-9));
    assertThat(drifts.path("top1_agreement").asDouble()).isCloseTo(5.0 / 6, within(1e-12));
    assertThat(drifts.path("output_tokens_per_s").asDouble()).isPositive();
    // The reference's replies are kept for candidates measured after a restart.
    assertThat(dir.resolve("drift").resolve("reference.ref.C_1.json")).exists();
    String page = Files.readString(dir.resolve("index.html"));
    assertThat(page).contains("<div class=\"drift-lead\"><p><b>Drift against ref</b>");
  }

  @Test
  void aCandidateMeasuredBeforeItsReferenceComparesWithTheRepliesAnEarlierRunKept() throws IOException {
    // As candidates launched one after another and resumed: this run measures the candidate first, and the reference's
    // replies come from the sweep's folder, where the earlier run (reference first) kept them.
    Path reports = Files.createTempDirectory("drift-resumed");
    String reordered = "drifts=embedded:instant+diverge=5;ref=embedded:instant";
    BenchKit.Run fresh = BenchKit.run(ResumedTestCases.class, "llmbench.deployments", reordered);
    assertThat(fresh).level("C=1 · drifts").failedWith(java.util.NoSuchElementException.class);
    assertThat(Files.readString(fresh.sweepDir(ResumedTestCases.class, "drift").resolve("table.txt"))).contains(
        "C=1 · drifts | drift: no reference replies at C=1 (ref is not measured at this load, and no earlier run kept its "
            + "replies)");
    assertThat(BenchKit.run(ResumedTestCases.class, "llmbench.report.dir", reports.toString())).passed("C=1 · ref", "C=1 · drifts");
    BenchKit.Run resumed = BenchKit.run(ResumedTestCases.class, "llmbench.report.dir", reports.toString(), "llmbench.deployments",
        reordered);
    assertThat(resumed).passed("C=1 · drifts", "C=1 · ref");
  }

  @Test
  void allureSweepSummaryLeadsWithTheDriftAndAttachesItsFigures() throws IOException {
    Path results = Files.createTempDirectory("drift-allure-");
    List<JsonNode> allure = BenchKit.runWithAllure(ChunksTestCases.class, results);
    JsonNode summary = allure.stream().filter(r -> r.path("name").asText().equals("chunks · sweep summary")).findFirst()
        .orElseThrow();
    assertThat(summary.path("descriptionHtml").asText()).contains("<div class=\"drift-lead\"><p><b>Drift against ref</b>",
        "C=1 · drifts: 0/4 replies identical (0.0% [0.0%, 0.0%]), 3.0 of 16.0 leading tokens in common [3.0, 3.0]");
    assertThat(summary.path("attachments").toString()).contains("\"name\":\"drift\"");
  }

  @Test
  void logprobsAskedButNotReturnedFailTheLevelLoudly() {
    BenchKit.Run run = BenchKit.run(NoLogprobsTestCases.class);
    assertThat(run).level("C=1 · ref").succeeded();
    assertThat(run).level("C=1 · plain").failedWith(AssertionError.class).hasMessage("C=1 · plain: @Drift asked for logprobs "
        + "(top_logprobs 3), but 4 of 4 replies came without them, so top-1 agreement and KL divergence cannot be measured; "
        + "serve with logprobs (vLLM: --max-logprobs 3 or more), or set @Drift(topLogprobs = 0) to compare tokens as the "
        + "stream's chunks");
  }

  @Test
  void withoutLogprobsTokensAreTheStreamsChunks() {
    BenchKit.Run run = BenchKit.run(ChunksTestCases.class);
    assertThat(run).passed("C=1 · ref", "C=1 · drifts");
  }

  @Test
  void anAssertionListsEveryCandidateThatBreaksItsBound() {
    BenchKit.Run run = BenchKit.run(BoundsTestCases.class);
    assertThat(run).level("C=1 · d3").failedWith(AssertionError.class).hasMessage("[C=1 · d5: identical share vs ref] is "
        + "0.0%, below the required 50.0%\n[C=1 · d3: identical share vs ref] is 0.0%, below the required 50.0%");
    assertThat(run).level("C=1 · d5").failedWith(AssertionError.class).hasMessage("[C=1 · d5: leading tokens in common vs "
        + "ref] is 5.0, below the required 6.0");
  }

  @Test
  void besideAnEvalDriftComparesTheEvalsRepliesAndReadsBesideAccuracy() throws IOException {
    BenchKit.Run run = BenchKit.run(BesideEvalTestCases.class);
    assertThat(run).passed("C=1 · ref", "C=1 · same");
    String table = Files.readString(run.sweepDir(BesideEvalTestCases.class, "eval").resolve("table.txt"));
    assertThat(table).contains("C=1 · same | drift vs ref: 8/8 replies identical (100.0% [100.0%, 100.0%])",
        "top-k holds 96.9% of the reference's probability); ", "; accuracy 100.0%");
  }

  @Test
  void promptsThatKeepOnlyAnExcerptOfEachReplyAreRefused() {
    assertThat(BenchKit.run(DatasetTestCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [DatasetTestCases#dataset]: @Drift on dataset compares replies "
            + "whole, and this sweep's prompts keep only an excerpt of each: let @Drift bring the prompts, or put it beside "
            + "@QualityEval");
  }

  @Test
  void moreTopLogprobsThanOpenAiAllowsAreRefused() {
    assertThat(BenchKit.run(TooManyLogprobsTestCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [TooManyLogprobsTestCases#many]: @Drift 'topLogprobs' must be 0 "
            + "(ask for none) to 20 (OpenAI's most), was 21");
  }

  @Test
  void aSweepOfOneEndpointHasNoReference() {
    assertThat(BenchKit.run(NoReferenceTestCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [NoReferenceTestCases#alone]: @Drift on alone compares deployments "
            + "with a reference, and the sweep has none: declare two or more @Deployment (or the setting llmbench.deployments), "
            + "the reference first");
  }

  @Test
  void aReferenceThatIsNoDeploymentIsNamed() {
    assertThat(BenchKit.run(UnknownReferenceTestCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [UnknownReferenceTestCases#unknown]: @Drift(reference = \"f16\") on "
            + "unknown names no deployment of the sweep: choose one of [ref, drifts], or leave it empty for the first");
  }

  @Test
  void aPromptFileThatDoesNotParseFailsBeforeAnyRequestNamingItsLine() throws IOException {
    Path file = Path.of(BAD_FILE);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"prompt\": \"Say hello.\"}\n{\"prompt\": \"Say goodbye.\"\n");
    BenchKit.Run run = BenchKit.run(BadFileTestCases.class);
    assertThat(run).hasSingleFailure().failedWith(ExtensionConfigurationException.class).hasMessageMatching(Messages.pattern(
        "Configuration error: sweep on method [BadFileTestCases#bad]: " + file + " line 2: not JSON ({*}); expected "
            + "{\"prompt\": \"...\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}]}"));
    assertThat(run.tests().started().count()).as("levels started").isZero();
  }

  @Test
  void aPromptWithoutTextIsNamedByItsField() throws IOException {
    Path file = Path.of(EMPTY_FILE);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"prompt\": \"Say hello.\"}\n{\"text\": \"Say goodbye.\"}\n");
    assertThat(BenchKit.run(EmptyPromptTestCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [EmptyPromptTestCases#empty]: " + file + " line 2, field \"prompt\": "
            + "missing (and no \"messages\"); expected a non-blank string, or \"messages\": a non-empty array");
  }

  // ----- fixtures

  static final String BAD_FILE = "target/drift-tests/bad.jsonl";
  static final String EMPTY_FILE = "target/drift-tests/empty.jsonl";

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "same", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=5")
  static class KnownDriftTestCases {
    @ConcurrencySweep({1, 4})
    @Drift(prompts = 12, maxTokens = 32)
    @Warmup(requests = 0)
    void drift(SweepLevelResult level, Drifts drift) {
      assertThat(level).hasNoErrors();
      if (!level.endpoint().deployment().orElseThrow().equals("drifts")) return;
      DriftComparison same = drift.of("same").orElseThrow();
      assertThat(same.identical()).isEqualTo(12);
      assertThat(same.meanKld().orElseThrow().estimate()).isZero();
      DriftComparison d = drift.of("drifts").orElseThrow();
      assertThat(d.prompts()).isEqualTo(12);
      assertThat(d.identical()).isZero();
      assertThat(d.commonPrefix().estimate()).isEqualTo(5.0);
      assertThat(d.positions()).isEqualTo(12 * 6);
      assertThat(d.top1Agreement().orElseThrow().estimate()).isCloseTo(5.0 / 6, within(1e-12));
      assertThat(d.meanKld().orElseThrow().estimate()).isCloseTo(KL_AT_SWAP / 6, within(1e-9));
      DriftAssert.assertThat(drift).candidate("same").identicalShareAtLeast(1).meanKldAtMost(0);
      DriftAssert.assertThat(drift).commonPrefixAtLeast(5).meanKldAtMost(0.03).top1AgreementAtLeast(0.8);
    }
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=5")
  static class ResumedTestCases {
    @ConcurrencySweep(1)
    @Drift(prompts = 12, maxTokens = 32, reference = "ref")
    @Warmup(requests = 0)
    void drift(SweepLevelResult level, Drifts drift) {
      if (level.endpoint().deployment().orElseThrow().equals("ref")) return;
      assertThat(drift.of("drifts").orElseThrow().commonPrefix().estimate()).isEqualTo(5.0);
    }
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "plain", embeddedProfile = "instant+no-logprobs")
  static class NoLogprobsTestCases {
    @ConcurrencySweep(1)
    @Drift(prompts = 4, maxTokens = 8, topLogprobs = 3)
    @Warmup(requests = 0)
    void noLogprobs(SweepLevelResult level) {}
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=3")
  static class ChunksTestCases {
    @ConcurrencySweep(1)
    @Drift(prompts = 4, maxTokens = 16, topLogprobs = 0)
    @Warmup(requests = 0)
    void chunks(SweepLevelResult level, Drifts drift) {
      if (!level.endpoint().deployment().orElseThrow().equals("drifts")) return;
      DriftComparison d = drift.of("drifts").orElseThrow();
      assertThat(d.identical()).isZero();
      assertThat(d.commonPrefix().estimate()).isEqualTo(3.0);
      assertThat(d.meanKld()).isEmpty();
      assertThat(d.top1Agreement()).isEmpty();
    }
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "d5", embeddedProfile = "instant+diverge=5")
  @Deployment(name = "d3", embeddedProfile = "instant+diverge=3")
  static class BoundsTestCases {
    @ConcurrencySweep(1)
    @Drift(prompts = 4, maxTokens = 16)
    @Warmup(requests = 0)
    void bounds(SweepLevelResult level, Drifts drift) {
      String me = level.endpoint().deployment().orElseThrow();
      if (me.equals("d5")) DriftAssert.assertThat(drift).commonPrefixAtLeast(6);
      if (me.equals("d3")) DriftAssert.assertThat(drift).meanKldAtMost(1).identicalShareAtLeast(0.5);
    }
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "same", embeddedProfile = "instant")
  static class BesideEvalTestCases {
    @ConcurrencySweep(1)
    @dev.llmbench.quality.QualityEval(generated = dev.llmbench.quality.QualityEval.Generated.ARITHMETIC, items = 8)
    @Drift
    @Warmup(requests = 0)
    void eval(SweepLevelResult level, Drifts drift) {
      assertThat(level).hasNoErrors();
    }
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=3")
  static class DatasetTestCases {
    @ConcurrencySweep(1)
    @dev.llmbench.datasets.Dataset(path = "src/test/resources/datasets/chat.jsonl",
        format = dev.llmbench.datasets.Dataset.Format.OPENAI_CHAT)
    @Drift
    void dataset(SweepLevelResult level) {}
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=3")
  static class TooManyLogprobsTestCases {
    @ConcurrencySweep(1)
    @Drift(topLogprobs = 21)
    void many(SweepLevelResult level) {}
  }

  static class NoReferenceTestCases {
    @ConcurrencySweep(1)
    @Drift
    void alone(SweepLevelResult level) {}
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=3")
  static class UnknownReferenceTestCases {
    @ConcurrencySweep(1)
    @Drift(reference = "f16")
    void unknown(SweepLevelResult level) {}
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=3")
  static class BadFileTestCases {
    @ConcurrencySweep(1)
    @Drift(path = BAD_FILE)
    void bad(SweepLevelResult level) {}
  }

  @Deployment(name = "ref", embeddedProfile = "instant")
  @Deployment(name = "drifts", embeddedProfile = "instant+diverge=3")
  static class EmptyPromptTestCases {
    @ConcurrencySweep(1)
    @Drift(path = EMPTY_FILE)
    void empty(SweepLevelResult level) {}
  }
}
