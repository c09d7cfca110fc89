package dev.llmbench.internal.report;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import io.qameta.allure.Allure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs a fixture with Allure's JUnit Platform listener into a folder of its own, then reads what Allure got. */
class AllureResultsTests {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path results;

  static List<JsonNode> testResults;

  /** Allure names a template invocation by the method, then the invocation's display name. */
  static final String SWEEP = "sweep(SweepLevelResult) ";

  @BeforeAll
  static void runFixtureWithAllure() throws IOException {
    testResults = BenchKit.runWithAllure(AllureTestCases.class, results);
  }

  static JsonNode result(String name) {
    return testResults.stream().filter(r -> r.path("name").asText().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no Allure result named " + name + " among "
            + testResults.stream().map(r -> r.path("name").asText()).toList()));
  }

  static Stream<JsonNode> elements(JsonNode array) {
    List<JsonNode> list = new ArrayList<>();
    array.forEach(list::add);
    return list.stream();
  }

  static Map<String, String> parameters(JsonNode result) {
    Map<String, String> p = new java.util.LinkedHashMap<>();
    result.path("parameters").forEach(n -> p.put(n.path("name").asText(), n.path("value").asText()));
    return p;
  }

  static List<String> attachmentTypes(JsonNode result) {
    List<String> types = new ArrayList<>();
    result.path("attachments").forEach(a -> types.add(a.path("type").asText()));
    return types;
  }

  static List<String> stepNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.path("steps").forEach(s -> {
      names.add(s.path("name").asText());
      names.addAll(stepNames(s));
    });
    return names;
  }

  @Test
  void everyLevelIsAResultWithReadableParameters() {
    for (String level : List.of("C=1", "C=2")) {
      Map<String, String> p = parameters(result(SWEEP + level));
      assertThat(p).containsEntry("concurrency", level.substring(2)).containsEntry("model", "instant")
          .containsEntry("requests", "3").containsEntry("max_tokens", "4").containsEntry("prompts", "builtin")
          .containsEntry("level", level);
      // The embedded engine's port changes every run; its name does not, so history ids hold.
      assertThat(p).containsEntry("endpoint", "embedded instant");
    }
  }

  @Test
  void theFixturesOwnChecksPassedAndOnlyTheSloSweepFailed() {
    assertThat(result("knowsParis(LlmClient)").path("status").asText()).isEqualTo("passed");
    assertThat(result(SWEEP + "C=1").path("status").asText()).isEqualTo("passed");
    assertThat(result(SWEEP + "C=2").path("status").asText()).isEqualTo("passed");
    assertThat(result("sloSweep(SweepLevelResult) C=1, slo").path("status").asText()).isEqualTo("failed");
  }

  @Test
  void theSweepIsAResultOfItsOwnWithTableAndCharts() throws IOException {
    JsonNode summary = result("sweep · sweep summary");
    assertThat(summary.path("status").asText()).isEqualTo("passed");
    List<String> names = new ArrayList<>();
    summary.path("attachments").forEach(a -> names.add(a.path("name").asText()));
    assertThat(names).containsExactly("sweep table", "findings", "chart: throughput", "chart: latency", "chart: ttft", "chart: efficiency",
        "chart: tradeoff");
    String table = Files.readString(results.resolve(summary.path("attachments").get(0).path("source").asText()));
    assertThat(table).contains("C= 1 | 3/3 ok (0 err)").contains("C= 2 | 3/3 ok (0 err)");
    assertThat(labels(summary)).containsEntry("testMethod", "sweep").containsEntry("framework", "llmbench");
  }

  static Map<String, String> labels(JsonNode result) {
    Map<String, String> labels = new java.util.LinkedHashMap<>();
    result.path("labels").forEach(l -> labels.put(l.path("name").asText(), l.path("value").asText()));
    return labels;
  }

  @Test
  void theSweepSummaryTakesTheFirstLevelsPlaceInTheTreeAndStartsBeforeIt() {
    JsonNode summary = result("sweep · sweep summary");
    JsonNode first = result(SWEEP + "C=1");
    assertThat(summary.path("titlePath")).isNotEmpty().isEqualTo(first.path("titlePath"));
    Map<String, String> levelLabels = labels(first);
    for (String name : List.of("suite", "package", "testClass", "testMethod")) {
      assertThat(labels(summary)).as(name).containsEntry(name, levelLabels.get(name));
    }
    // Allure's tree lists a branch by start: the summary comes first.
    assertThat(summary.path("start").asLong()).isLessThan(first.path("start").asLong());
  }

  @Test
  void theSweepSummaryDescriptionShowsTableFindingsAndChartsAsImages() {
    String html = result("sweep · sweep summary").path("descriptionHtml").asText();
    // The table as the console prints it: the simulator named, the columns, then a row per level.
    assertThat(html).contains("<pre>SIMULATED: measured on the embedded simulator (profile '").contains("\nC= 1 | 3/3 ok (0 err)")
        .contains("C= 2 | 3/3 ok (0 err)")
        .contains("<h3>Answer</h3>").contains("<table class=\"levels\">")
        .contains("<b>scaling</b>: 2x the concurrency (C=1 to C=2) gave");
    // Allure 3 strips inline <svg> from descriptions: charts go in as data: URI images.
    assertThat(html).doesNotContain("<svg");
    assertThat(html.split("<img ", -1)).hasSize(6);
    java.util.regex.Matcher image = java.util.regex.Pattern.compile("src=\"data:image/svg\\+xml;base64,([A-Za-z0-9+/=]+)\"").matcher(html);
    assertThat(image.find()).as("a chart as a data: URI").isTrue();
    assertThat(new String(java.util.Base64.getDecoder().decode(image.group(1)), java.nio.charset.StandardCharsets.UTF_8)).contains("<svg");
  }

  @Test
  void levelsCarrySummaryRequestsAndResultAttachments() {
    assertThat(attachmentTypes(result(SWEEP + "C=1"))).containsExactly("text/html", "text/csv", "application/json",
        "image/svg+xml", "image/svg+xml");
    assertThat(result(SWEEP + "C=1").path("attachments").findValuesAsText("name")).containsExactly("C=1 summary",
        "C=1 requests", "C=1 result", "C=1 timeline", "C=1 over-time");
  }

  @Test
  void lastLevelCarriesTheSweepTableItsOwnTwoChartsAndTheSweepsFive() {
    List<String> types = attachmentTypes(result(SWEEP + "C=2"));
    assertThat(types).containsSubsequence("text/html", "text/csv", "application/json", "text/plain");
    // The level's own timeline and over-time charts, then the sweep's five.
    assertThat(types.stream().filter("image/svg+xml"::equals).count()).isEqualTo(7);
  }

  @Test
  void attachmentFilesExistWithTheirContent() throws IOException {
    for (JsonNode a : result(SWEEP + "C=2").path("attachments")) {
      Path file = results.resolve(a.path("source").asText());
      assertThat(file).exists();
      if (a.path("type").asText().equals("image/svg+xml")) assertThat(Files.readString(file)).contains("<svg");
    }
  }

  @Test
  void smokePromptIsAStepWithPromptAndReplyAttached() {
    JsonNode smoke = result("knowsParis(LlmClient)");
    JsonNode step = elements(smoke.path("steps"))
        .filter(s -> s.path("name").asText().startsWith("Prompt: What is the capital of France")).findFirst().orElseThrow();
    List<String> names = new ArrayList<>();
    step.path("attachments").forEach(a -> names.add(a.path("name").asText()));
    assertThat(names).containsExactly("prompt", "reply");
  }

  @Test
  void readinessWaitIsAStepOfTheFirstTestWithTheTimeToReady() {
    List<JsonNode> withWait = testResults.stream()
        .filter(r -> stepNames(r).stream().anyMatch(n -> n.startsWith("Wait until http://127.0.0.1:") && n.endsWith("is ready")))
        .toList();
    assertThat(withWait).hasSize(1);
    assertThat(parameters(withWait.get(0))).containsKey("time to ready");
    JsonNode timeToReady = elements(withWait.get(0).path("parameters"))
        .filter(p -> p.path("name").asText().equals("time to ready")).findFirst().orElseThrow();
    assertThat(timeToReady.path("excluded").asBoolean()).as("left out of the history id").isTrue();
  }

  @Test
  void failedSloLandsInTheSloCategory() throws IOException {
    JsonNode failed = result("sloSweep(SweepLevelResult) C=1, slo");
    assertThat(failed.path("status").asText()).isEqualTo("failed");
    String message = failed.path("statusDetails").path("message").asText();
    JsonNode categories = JSON.readTree(results.resolve("categories.json").toFile());
    // Allure puts a result in the first category whose regex matches its message.
    Optional<String> category = elements(categories)
        .filter(c -> message.matches(c.path("messageRegex").asText())).map(c -> c.path("name").asText()).findFirst();
    assertThat(category).contains("SLO violated");
  }

  @Test
  void environmentNamesEndpointModelJvmAndVersion() throws IOException {
    String env = Files.readString(results.resolve("environment.properties"));
    assertThat(env).contains("endpoint=http://127.0.0.1:").contains("model=instant")
        .contains("embedded_profile=instant").contains("JVM=").contains("LLMBench=");
    // What was measured, as the sweep's page says it: the simulator named, the run's date and the client machine.
    assertThat(env).contains("\nserver=the embedded simulator, not a real server\n").containsPattern("\nrun_date=\\d{4}-\\d\\d-\\d\\d ")
        .contains("\nrun_duration=").containsPattern("\nclient_machine=.+ \\(.+, \\d+ cores, .+\\)\n");
    assertThat(results.resolve("executor.json")).exists();
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class AllureTestCases {
    @Test
    void knowsParis(LlmClient llm) {
      assertThat(llm.chat("What is the capital of France?")).contentContains("Paris");
    }

    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      assertThat(level).hasNoErrors();
    }

    @ConcurrencySweep(value = 1, name = "C={concurrency}, slo")
    @Workload(maxTokens = 4)
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    @Slo(ttft = "1us", percentile = 50)
    void sloSweep(SweepLevelResult level) {
      assertThat(level).meetsSlo();
    }
  }

}
