package dev.llmbench.deployments;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** Each deployment's own price per GPU-hour and GPU count: its levels' dollars per million tokens and the decision's. */
class DeploymentCostTests {

  static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode level(Path dir, String file) throws IOException {
    return JSON.readTree(dir.resolve(file).toFile());
  }

  @Test
  void theDecisionShowsEachDeploymentsDollarsPerMillionOutputTokensFromItsOwnPrice() throws IOException {
    BenchKit.Run run = BenchKit.run(PricedTestCases.class);
    assertThat(run).passed("C=2 · one", "C=2 · four");
    Path dir = run.sweepDir(PricedTestCases.class, "compare");
    for (String[] d : new String[][] {{"one", "1"}, {"four", "4"}}) {
      JsonNode doc = level(dir, "C=2_" + d[0] + ".json");
      JsonNode cost = doc.path("llmbench").path("token_cost");
      int gpus = Integer.parseInt(d[1]);
      assertThat(cost.path("gpu_count").asInt()).isEqualTo(gpus);
      assertThat(cost.path("cost_usd").asDouble()).isCloseTo(gpus * 3.0 * doc.path("duration").asDouble() / 3600, within(1e-9));
      // The decision quotes the level's own figure.
      String perMillion = String.format(Locale.ROOT, "$%.3f per 1M output tokens",
          cost.path("cost_per_million_output_tokens_usd").asDouble());
      String table = Files.readString(dir.resolve("table.txt"));
      Matcher m = Pattern.compile(d[0] + "(?: is highest)?: \\d+ tok/s at C=2, ([^;(]*)").matcher(table);
      assertThat(m.find()).as(table).isTrue();
      assertThat(m.group(1).strip()).isEqualTo(perMillion);
    }
    String decision = Files.readString(dir.resolve("table.txt")).lines().filter(l -> l.startsWith("no @Slo")).findFirst()
        .orElseThrow();
    assertThat(decision).matches(Messages.pattern("no @Slo to judge goodput by; by output throughput, {*} is highest: {n} "
        + "tok/s at C=2, ${n} per 1M output tokens; {*}: {n} tok/s at C=2, ${n} per 1M output tokens ({n}% of {*})"));
  }

  @Test
  void theDeploymentsSettingPricesOneDeploymentAndLeavesTheOtherWithout() throws IOException {
    BenchKit.Run run = BenchKit.run(PricedTestCases.class, "llmbench.deployments",
        "a=embedded:instant,gpus=2,gpu-hour-price=1.5;b=embedded:instant");
    assertThat(run).passed("C=2 · a", "C=2 · b");
    Path dir = run.sweepDir(PricedTestCases.class, "compare");
    JsonNode a = level(dir, "C=2_a.json").path("llmbench");
    assertThat(a.path("token_cost").path("gpu_count").asInt()).isEqualTo(2);
    assertThat(a.path("token_cost").path("gpu_hour_price_usd").asDouble()).isEqualTo(1.5);
    assertThat(a.path("deployment_facts").path("description").asText()).isEqualTo("2 GPUs · $1.50/GPU-h");
    assertThat(level(dir, "C=2_b.json").path("llmbench").has("token_cost")).isFalse();
  }

  @Test
  void aPriceThatIsNoNumberIsAConfigurationErrorNamingTheFix() {
    assertThat(BenchKit.run(PricedTestCases.class, "llmbench.deployments", "a=embedded:instant,gpus=eight"))
        .hasSingleFailure().failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on "
            + "method [PricedTestCases#compare]: llmbench.deployments 'a=embedded:instant,gpus=eight' (from configuration "
            + "parameter llmbench.deployments) is not usable: deployment 'a': 'gpus=eight' is not a number; write e.g. "
            + "gpus=8,gpu-hour-price=2.5");
  }

  @Deployment(name = "one", embeddedProfile = "instant", gpuCount = 1, gpuHourPrice = 3.0)
  @Deployment(name = "four", embeddedProfile = "instant", gpuCount = 4, gpuHourPrice = 3.0)
  static class PricedTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 8)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void compare(SweepLevelResult level) {
      assertThat(level).hasNoErrors();
    }
  }
}
