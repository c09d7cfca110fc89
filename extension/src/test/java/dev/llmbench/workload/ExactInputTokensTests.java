package dev.llmbench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.client.RequestResult;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Synthetic prompts of exactly N prompt tokens, chat template and marker included: aligned before each level
 * against the embedded engine's {@code /tokenize} (which counts as its {@code usage.prompt_tokens} bills), its
 * usage on probe requests, or a local tokenizer.json; and the inputs that cannot be aligned failing before load.
 */
class ExactInputTokensTests {

  private static final String TOKENIZER = "src/test/resources/tokens/word-level-tokenizer.json";

  @Test
  void throughTheTokenizeRouteEveryRequestHasExactlyTheRequestedLength() throws IOException {
    BenchKit.Run run = BenchKit.run(TokenizeRouteCases.class);
    assertThat(run).passed("C=2, input_tokens=20", "C=2, input_tokens=137");
    JsonNode level = new ObjectMapper().readTree(run.sweepDir(TokenizeRouteCases.class, "sweep")
        .resolve("C=2_input_tokens=137.json").toFile()).path("llmbench").path("input_alignment");
    assertThat(level.path("requested_tokens").asInt()).isEqualTo(137);
    assertThat(level.path("method").asText()).isEqualTo("POST /tokenize (vLLM / SGLang)");
    assertThat(level.path("largest_deviation").isInt()).isTrue();
    assertThat(level.path("largest_deviation").asInt()).isZero();
    String table = Files.readString(run.sweepDir(TokenizeRouteCases.class, "sweep").resolve("table.txt"));
    assertThat(table).contains("| input: 137 prompt tokens exact (largest |usage.prompt_tokens - requested| 0 over 10 requests");
  }

  @Test
  void byUsageProbesEveryRequestHasExactlyTheRequestedLength() {
    assertThat(BenchKit.run(UsageProbeCases.class)).passed("C=2, input_tokens=16", "C=2, input_tokens=300");
  }

  @Test
  void onTheCompletionsApiTooEveryRequestHasExactlyTheRequestedLength() {
    assertThat(BenchKit.run(TokenizeRouteCases.class, "llmbench.api", "completions"))
        .passed("C=2, input_tokens=20", "C=2, input_tokens=137");
  }

  @Test
  void byALocalTokenizerJsonWithTheTemplateFromOneProbeEveryRequestHasExactlyTheRequestedLength() {
    assertThat(BenchKit.run(TokenizerJsonCases.class)).passed("C=2");
  }

  @Test
  void aLengthBelowTheTemplatesOwnOverheadFailsBeforeLoadNamingTheShortestLength() {
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).build())) {
      assertThat(BenchKit.run(TooShortCases.class, "llmbench.base-url", server.baseUrl().toString())).hasSingleFailure()
          .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
              + "[TooShortCases#sweep], C=1: the prompts could not be aligned to their exact length, so no load was sent: "
              + "inputTokens = 3 is below what the server bills for the shortest prompt this workload sends on the chat "
              + "API: 7 tokens (its chat template, the unique marker and one word; counted by POST /tokenize (vLLM / "
              + "SGLang)); ask for at least 7 input tokens");
      // The readiness probe's 1-token completion, and nothing else: aligning counted through /tokenize.
      assertThat(server.postsReceived("/v1/chat/completions")).isEqualTo(1);
    }
  }

  @Test
  void aTokenizeRouteThatAnswersGarbageFailsBeforeLoadNamingTheOtherMethods() {
    try (StubEngine stub = StubEngine.builder().tokenizeAnswer("<html>oops</html>").start()) {
      BenchKit.Run run = BenchKit.run(TokenizeRouteCases.class, "llmbench.base-url", stub.url());
      for (String level : List.of("C=2, input_tokens=20", "C=2, input_tokens=137")) {
        assertThat(run).level(level).failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: "
            + "sweep on method [TokenizeRouteCases#sweep], " + level + ": the prompts could not be aligned to their exact "
            + "length, so no load was sent: POST /tokenize answered 200 with <html>oops</html>, which is not a token count "
            + "(expected {\"count\": n} from vLLM or SGLang, {\"tokens\": [...]} from llama-server, {\"prompt\": ...} from "
            + "llama-server's /apply-template); set @ExactInputTokens(method = USAGE_PROBES) to align against the "
            + "usage.prompt_tokens of probe requests instead, or TOKENIZER_JSON with the model's tokenizer.json");
      }
      // The readiness probe, and the 1-token stream that asks whether the server reports usage per chunk: no load.
      assertThat(stub.chatRequests()).as("the readiness probe and the per-chunk usage question only").isEqualTo(2);
    }
  }

  @Test
  void aLlamaServerWithoutApplyTemplateIsAlignedByUsageProbesInstead() {
    // llama-server's /tokenize shape, with no /apply-template beside it: the route cannot count a chat template.
    try (StubEngine stub = StubEngine.builder().tokenizeAnswer("{\"tokens\": []}").start()) {
      assertThat(BenchKit.run(AnyMethodCases.class, "llmbench.base-url", stub.url())).passed("C=2");
    }
  }

  @Test
  void aTokenizerFileThatDoesNotExistIsAConfigurationErrorNamingItsAbsolutePath() {
    assertThat(BenchKit.run(MissingTokenizerCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [MissingTokenizerCases#sweep]: the tokenizer file "
            + "'no/such/tokenizer.json' does not exist (looked at " + Path.of("no/such/tokenizer.json").toAbsolutePath()
            + "); give the path of the served model's tokenizer.json (from its Hugging Face repository), or leave "
            + "'tokenizer' empty to align through the server's tokenize route or usage");
  }

  @Test
  void exactLengthsWithoutSyntheticPromptsIsAConfigurationError() {
    assertThat(BenchKit.run(NoInputTokensCases.class)).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
        .hasMessage("Configuration error: sweep on method [NoInputTokensCases#sweep]: @ExactInputTokens aligns synthetic "
            + "prompts or a trace's blocks: give the prompts' lengths as @Workload(inputTokens = {...}), or replay a @Trace "
            + "(a prompt set's lengths are its own)");
  }

  static void allExact(SweepLevelResult r, String method) {
    // The server's counters moved by the level's own requests only: aligning (probes included) came before it.
    LlmBenchAssertions.assertThat(r).hasServerTokenCountsMatching();
    InputAlignment a = r.inputAlignment().orElseThrow();
    assertThat(a.method()).isEqualTo(method);
    assertThat(a.plannedDeviation()).isZero();
    assertThat(a.checkedRequests()).isEqualTo(r.requestCount());
    assertThat(a.largestDeviation()).hasValue(0);
    assertThat(r.requests()).extracting(RequestResult::promptTokens).containsOnly(a.requestedTokens());
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class TokenizeRouteCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 2, inputTokens = {20, 137})
    @ExactInputTokens
    void sweep(SweepLevelResult r) {
      allExact(r, "POST /tokenize (vLLM / SGLang)");
    }
  }

  static class AnyMethodCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 2, inputTokens = 50)
    @ExactInputTokens
    void sweep(SweepLevelResult r) {
      allExact(r, "usage.prompt_tokens of probe requests");
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class UsageProbeCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 2, inputTokens = {16, 300})
    @ExactInputTokens(method = ExactInputTokens.Method.USAGE_PROBES)
    void sweep(SweepLevelResult r) {
      allExact(r, "usage.prompt_tokens of probe requests");
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class TokenizerJsonCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 2, inputTokens = 64)
    @ExactInputTokens(method = ExactInputTokens.Method.TOKENIZER_JSON, tokenizer = TOKENIZER)
    void sweep(SweepLevelResult r) {
      allExact(r, "tokenizer.json word-level-tokenizer.json + the template's tokens from one probe's usage");
    }
  }

  static class TooShortCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 2, inputTokens = 3)
    @ExactInputTokens(method = ExactInputTokens.Method.TOKENIZE_ROUTE)
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class MissingTokenizerCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 2, inputTokens = 32)
    @ExactInputTokens(tokenizer = "no/such/tokenizer.json")
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class NoInputTokensCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 2)
    @ExactInputTokens
    void sweep(SweepLevelResult r) {}
  }
}
