package dev.llmbench.internal.report;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.baseline.VllmReferenceTests;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.testkit.BenchKit;
import io.qameta.allure.Allure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Allure gets of a comparison: deltas against a baseline on each level, its category, the deployment. */
class AllureComparisonTests {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path results;

  static List<JsonNode> testResults;

  /** A vLLM run at C=1 with 5 ms token gaps: the 20 ms engine's gaps regress against it. */
  @BeforeAll
  static void runFixtureWithAllure() throws IOException {
    Path vllm = Files.writeString(results.resolveSibling(results.getFileName() + "-vllm.json"), VllmReferenceTests.detailed(1, 0.005));
    testResults = BenchKit.runWithAllure(ComparisonTestCases.class, results, "llmbench.baseline.vllm", vllm.toString());
  }

  static JsonNode result(String name) {
    return testResults.stream().filter(r -> r.path("name").asText().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no Allure result " + name + " among "
            + testResults.stream().map(r -> r.path("name").asText()).toList()));
  }

  @Test
  void aRegressedLevelCarriesItsDeltasAndLandsInTheRegressionCategory() throws IOException {
    JsonNode level = result("sweep(SweepLevelResult) C=1");
    assertThat(level.path("status").asText()).isEqualTo("failed");
    JsonNode deltas = AllureResultsTests.elements(level.path("attachments"))
        .filter(a -> a.path("name").asText().equals("C=1 vs baseline")).findFirst().orElseThrow();
    assertThat(Files.readString(results.resolve(deltas.path("source").asText())))
        .startsWith("C=1 against vLLM results ").contains("- ITL p50 +").contains("): regressed");
    String message = level.path("statusDetails").path("message").asText();
    Optional<String> category = AllureResultsTests.elements(JSON.readTree(results.resolve("categories.json").toFile()))
        .filter(c -> message.matches(c.path("messageRegex").asText())).map(c -> c.path("name").asText()).findFirst();
    assertThat(category).contains("Regression beyond noise");
  }

  @Test
  void aDeploymentsLevelNamesItsDeployment() {
    assertThat(AllureResultsTests.parameters(result("deployments(SweepLevelResult) C=1 · x")))
        .containsEntry("deployment", "x").containsEntry("endpoint", "embedded instant");
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class ComparisonTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      assertThat(level).hasNoErrors();
    }

    @ConcurrencySweep(1)
    @Deployment(name = "x", embeddedProfile = "instant")
    @Workload(maxTokens = 4)
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    void deployments(SweepLevelResult level) {
      assertThat(level).hasNoErrors();
    }
  }
}
