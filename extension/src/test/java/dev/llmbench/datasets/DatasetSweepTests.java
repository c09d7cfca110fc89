package dev.llmbench.datasets;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.StreamSupport;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Sweeps that send a dataset's rows or drawn lengths, run through the Jupiter engine against a stub server
 * that keeps every body it receives: what reaches the server, what each level reports, and that bad input
 * fails the sweep before a single request is sent.
 */
class DatasetSweepTests {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode level(BenchKit.Run run, Class<?> fixture, String label) throws IOException {
    return JSON.readTree(Files.readString(run.sweepDir(fixture, "sweep").resolve(label + ".json"))).path("llmbench");
  }

  /** The bodies of the measured requests: those after the readiness probe and the warm-up (none here). */
  private static List<JsonNode> measured(StubEngine stub) {
    return stub.bodies().stream().filter(b -> b.path("max_tokens").asInt() != 1 || b.path("messages").size() > 1).toList();
  }

  private static List<Integer> ints(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asInt()));
    return out;
  }

  @Test
  void shareGptRowsAreSentWithTheirRepliesLengthsAndTheLevelReportsWhichRows() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(ShareGptTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=2");
      JsonNode w = level(run, ShareGptTestCases.class, "C=2").path("workload");
      JsonNode ds = w.path("dataset");
      assertThat(ds.path("format").asText()).isEqualTo("sharegpt");
      assertThat(ds.path("file").asText()).endsWith("sharegpt-small.json");
      assertThat(ds.path("rows_read").asInt()).isEqualTo(6);
      assertThat(ds.path("rows_skipped").asInt()).isEqualTo(2);
      assertThat(ds.path("rows_kept").asInt()).isEqualTo(4);
      assertThat(ds.path("rows_sent").asInt()).isEqualTo(4);
      assertThat(ds.path("first_row").asInt()).isEqualTo(1);
      assertThat(ds.path("last_row").asInt()).isEqualTo(6);
      // Six requests over four rows: rows 1, 3, 5, 6, 1, 3, each asking for its reply's length at 4 characters a token.
      JsonNode file = JSON.readTree(Path.of(DATA + "sharegpt-small.json").toFile());
      List<Integer> replies = new ArrayList<>();
      for (int row : new int[] {1, 3, 5, 6, 1, 3}) {
        JsonNode turns = file.get(row - 1).path("conversations");
        String reply = turns.get(turns.get(0).path("from").asText().equals("system") ? 2 : 1).path("value").asText();
        replies.add((reply.codePointCount(0, reply.length()) + 3) / 4);
      }
      List<Integer> sent = measured(stub).stream().map(b -> b.path("max_tokens").asInt()).toList();
      assertThat(sent).containsExactlyInAnyOrderElementsOf(replies);
      assertThat(w.path("output_tokens").path("requested_as").asText()).isEqualTo("the rows' own");
      JsonNode out = w.path("output_tokens");
      assertThat(out.path("requested").path("mean").asDouble()).isEqualTo(replies.stream().mapToInt(i -> i).average().orElseThrow());
      // The stub generates exactly max_tokens: actual equals requested, bin for bin.
      assertThat(ints(out.path("actual").path("histogram").path("counts")))
          .isEqualTo(ints(out.path("requested").path("histogram").path("counts")));
      String html = Files.readString(run.sweepDir(ShareGptTestCases.class, "sweep").resolve("index.html"));
      assertThat(html).contains("workload: sharegpt:sharegpt-small.json rows 1-6 (4 sent; all 4").contains("input tokens");
      assertThat(html).contains("C=2: output tokens").contains("<svg");
      assertThat(run.sweepDir(ShareGptTestCases.class, "sweep").resolve("C=2.output-lengths.svg")).exists();
      assertThat(run.sweepDir(ShareGptTestCases.class, "sweep").resolve("C=2.input-lengths.svg")).exists();
    }
  }

  @Test
  void openAiChatRowsSendTheirOwnMaxTokensTemperatureToolsAndResponseFormat() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(ChatTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1");
      List<JsonNode> bodies = measured(stub);
      assertThat(bodies).hasSize(4);
      JsonNode france = find(bodies, "capital of France");
      assertThat(france.path("max_tokens").asInt()).isEqualTo(6);
      assertThat(france.path("temperature").asDouble(-1)).isEqualTo(0.0);
      assertThat(france.path("messages").get(0).path("role").asText()).isEqualTo("system");
      JsonNode weather = find(bodies, "weather in Paris");
      assertThat(weather.path("tools").get(0).path("function").path("name").asText()).isEqualTo("get_weather");
      assertThat(weather.path("max_tokens").asInt()).isEqualTo(12);
      JsonNode colours = find(bodies, "List three colours as JSON.");
      assertThat(colours.path("response_format").path("type").asText()).isEqualTo("json_object");
      assertThat(colours.has("tools")).isFalse();
      // A row without max_tokens asks for the workload's.
      assertThat(find(bodies, "Say hello.").path("max_tokens").asInt()).isEqualTo(32);
      assertThat(level(run, ChatTestCases.class, "C=1").path("workload").path("output_tokens").path("requested_as").asText())
          .isEqualTo("the rows' own, else 32");
    }
  }

  @Test
  void vllmCustomRowsUpToTheLimitAreSentAndTheRestNever() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(CustomTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1");
      assertThat(measured(stub)).extracting(b -> b.path("max_tokens").asInt()).containsExactlyInAnyOrder(9, 5, 14, 9, 5, 14);
      JsonNode ds = level(run, CustomTestCases.class, "C=1").path("workload").path("dataset");
      assertThat(ds.path("sampling").asText()).isEqualTo("first 3");
      assertThat(ds.path("rows_sent").asInt()).isEqualTo(3);
      assertThat(ds.path("last_row").asInt()).isEqualTo(3);
    }
  }

  @Test
  void aFixedOutputLengthOverridesTheRowsAsVllmsShareGptOutputLenDoes() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(FixedOutputTestCases.class, "llmbench.base-url", stub.url())).passed("C=1");
      assertThat(measured(stub)).extracting(b -> b.path("max_tokens").asInt()).containsOnly(7).hasSize(4);
    }
  }

  @Test
  void drawnLengthsReachTheServerAndTheLevelReportsRequestedAndActual() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(DistributionTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=2");
      List<JsonNode> bodies = measured(stub);
      assertThat(bodies).hasSize(20);
      assertThat(bodies).extracting(b -> b.path("max_tokens").asInt()).containsOnly(4, 8);
      // The prompt is its unique 8-hex-digit marker and then the drawn number of words.
      assertThat(bodies).extracting(b -> b.path("messages").get(0).path("content").asText().split(" ").length - 1)
          .allSatisfy(words -> assertThat(words).isBetween(20, 40));
      JsonNode w = level(run, DistributionTestCases.class, "C=2").path("workload");
      assertThat(w.path("input_tokens").path("requested_as").asText()).isEqualTo("uniform(20,40)");
      assertThat(w.path("output_tokens").path("requested_as").asText()).isEqualTo("empirical(4:50,8:50)");
      JsonNode in = w.path("input_tokens");
      assertThat(in.path("requested").path("min").asInt()).isGreaterThanOrEqualTo(20);
      assertThat(in.path("requested").path("max").asInt()).isLessThanOrEqualTo(40);
      // The stub counts words: each prompt's words plus the marker, one more than requested.
      assertThat(in.path("actual").path("mean").asDouble()).isEqualTo(in.path("requested").path("mean").asDouble() + 1);
      assertThat(w.path("output_tokens").path("actual").path("mean").asDouble())
          .isEqualTo(w.path("output_tokens").path("requested").path("mean").asDouble());
      // The requests asked 4 or 8: no single max_tokens, their range as the wire carried it (#36).
      JsonNode asked = level(run, DistributionTestCases.class, "C=2").path("max_tokens_asked");
      assertThat(level(run, DistributionTestCases.class, "C=2").has("max_tokens")).isFalse();
      assertThat(asked.path("min").asInt()).isEqualTo(4);
      assertThat(asked.path("max").asInt()).isEqualTo(8);
      assertThat(asked.path("mean").asDouble()).isCloseTo(bodies.stream().mapToInt(b -> b.path("max_tokens").asInt()).average()
          .orElseThrow(), org.assertj.core.api.Assertions.within(0.05));
    }
  }

  /** 50 rows whose output_tokens is their row number, so that max_tokens says which row a request sent. */
  static void fiftyRows() throws IOException {
    List<String> rows = new ArrayList<>();
    for (int i = 1; i <= 50; i++) rows.add("{\"prompt\": \"Row " + i + " asks something.\", \"output_tokens\": " + i + "}");
    Files.createDirectories(Path.of(FIFTY).getParent());
    Files.write(Path.of(FIFTY), rows);
  }

  @Test
  void aRandomSampleIsTheSameRowsInTheSameOrderForTheSameSeedAndOthersForAnother() throws IOException {
    fiftyRows();
    List<List<Integer>> sent = new ArrayList<>();
    for (Class<?> fixture : List.of(RandomSampleTestCases.class, RandomSampleTestCases.class, OtherSeedTestCases.class)) {
      try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
        BenchKit.Run run = BenchKit.run(fixture, "llmbench.base-url", stub.url());
        assertThat(run).passed("C=1");
        List<Integer> rows = measured(stub).stream().map(b -> b.path("max_tokens").asInt()).toList();
        assertThat(rows).hasSize(5).doesNotHaveDuplicates().allSatisfy(r -> assertThat(r).isBetween(1, 50));
        JsonNode ds = level(run, fixture, "C=1").path("workload").path("dataset");
        long seed = fixture == RandomSampleTestCases.class ? 11 : 12;
        assertThat(ds.path("sampling").asText()).isEqualTo("random 5 of 50, seed " + seed);
        assertThat(ds.path("rows_read").asInt()).isEqualTo(50);
        assertThat(ds.path("rows_sent").asInt()).isEqualTo(5);
        assertThat(ds.path("first_row").asInt()).isEqualTo(rows.stream().mapToInt(i -> i).min().orElseThrow());
        assertThat(ds.path("last_row").asInt()).isEqualTo(rows.stream().mapToInt(i -> i).max().orElseThrow());
        sent.add(rows);
      }
    }
    assertThat(sent.get(1)).as("the same seed: the same rows in the same order").isEqualTo(sent.get(0));
    assertThat(sent.get(2)).as("another seed: other rows").isNotEqualTo(sent.get(0));
    assertThat(sent.get(0)).as("a sample, not the first rows").isNotEqualTo(List.of(1, 2, 3, 4, 5));
  }

  @Test
  void normalLogNormalAndFixedLengthsReachTheServerWithinTheirBoundsAndTheLevelReportsThem() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(NormalTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=2");
      List<JsonNode> bodies = measured(stub);
      assertThat(bodies).hasSize(30);
      List<Integer> words = bodies.stream().map(b -> b.path("messages").get(0).path("content").asText().split(" ").length - 1)
          .toList();
      List<Integer> outputs = bodies.stream().map(b -> b.path("max_tokens").asInt()).toList();
      assertThat(words).allSatisfy(n -> assertThat(n).isBetween(20, 40));
      assertThat(outputs).allSatisfy(n -> assertThat(n).isBetween(2, 12)); // min 2: max_tokens 1 is the readiness probe
      assertThat(words.stream().distinct().count()).as("drawn, not fixed").isGreaterThan(3);
      assertThat(outputs.stream().distinct().count()).as("drawn, not fixed").isGreaterThan(2);
      JsonNode w = level(run, NormalTestCases.class, "C=2").path("workload");
      assertThat(w.path("input_tokens").path("requested_as").asText()).isEqualTo("normal(30,6,min=20,max=40)");
      assertThat(w.path("output_tokens").path("requested_as").asText()).isEqualTo("lognormal(6,5,min=2,max=12)");
      assertThat(w.path("input_tokens").path("requested").path("mean").asDouble())
          .isCloseTo(words.stream().mapToInt(i -> i).average().orElseThrow(), org.assertj.core.api.Assertions.within(1e-9));
      assertThat(w.path("output_tokens").path("requested").path("mean").asDouble())
          .isCloseTo(outputs.stream().mapToInt(i -> i).average().orElseThrow(), org.assertj.core.api.Assertions.within(1e-9));
    }
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(FixedLengthTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1");
      List<JsonNode> bodies = measured(stub);
      assertThat(bodies).hasSize(6);
      assertThat(bodies).extracting(b -> b.path("messages").get(0).path("content").asText().split(" ").length - 1)
          .containsOnly(25);
      assertThat(bodies).extracting(b -> b.path("max_tokens").asInt()).containsOnly(9);
      JsonNode w = level(run, FixedLengthTestCases.class, "C=1").path("workload");
      assertThat(w.path("input_tokens").path("requested_as").asText()).isEqualTo("25");
      assertThat(w.path("output_tokens").path("requested_as").asText()).isEqualTo("9");
    }
  }

  @Test
  void aSettingOverridesTheAnnotationsDistribution() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(DistributionTestCases.class, "llmbench.base-url", stub.url(), "llmbench.workload.output-length", "3"))
          .passed("C=2");
      assertThat(measured(stub)).extracting(b -> b.path("max_tokens").asInt()).containsOnly(3);
    }
  }

  @Nested
  @DisplayName("bad input fails the sweep before any request, naming the method, the file, line and field")
  class BadInput {

    @Test
    void aRowThatIsNotJsonFailsBeforeAnyRequest() {
      // In parentheses, the JSON parser's own words: Jackson's to choose.
      assertNoLoad(NotJsonTestCases.class, thrown -> thrown.hasMessageMatching(Messages.pattern(
          "Configuration error: sweep on method [NotJsonTestCases#sweep]: @Dataset(format = OPENAI_CHAT): "
          + "src/test/resources/datasets/bad/chat-not-json.jsonl line 3: not JSON ({*}); expected one JSON object per "
          + "line, like "
          + "{\"messages\": [{\"role\": \"user\", \"content\": \"...\"}], \"max_tokens\": 128} (max_tokens, "
          + "temperature, tools, response_format optional)")));
    }

    @Test
    void aMissingFieldFailsBeforeAnyRequest() {
      assertNoLoad(MissingFieldTestCases.class,
          "Configuration error: sweep on method [MissingFieldTestCases#sweep]: @Dataset(format = "
          + "OPENAI_CHAT): src/test/resources/datasets/bad/chat-missing-messages.jsonl line 2, field "
          + "\"messages\": missing (the row has \"prompt\": it looks like vLLM custom (format VLLM_CUSTOM)); "
          + "expected a row like {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}], \"max_tokens\": 128} "
          + "(max_tokens, temperature, tools, response_format optional)");
    }

    @Test
    void aNegativeLengthFailsBeforeAnyRequest() {
      assertNoLoad(NegativeLengthTestCases.class,
          "Configuration error: sweep on method [NegativeLengthTestCases#sweep]: @Dataset(format = "
          + "VLLM_CUSTOM): src/test/resources/datasets/bad/custom-negative-length.jsonl line 2, field "
          + "\"output_tokens\": -5 is negative; expected a whole number of at least 1");
    }

    @Test
    void anEmptyFileFailsBeforeAnyRequest() {
      assertNoLoad(EmptyFileTestCases.class,
          "Configuration error: sweep on method [EmptyFileTestCases#sweep]: @Dataset(format = "
          + "VLLM_CUSTOM): src/test/resources/datasets/bad/empty.jsonl: holds no rows; expected at least "
          + "one row like {\"prompt\": \"...\", \"output_tokens\": 128} (output_tokens optional)");
      assertNoLoad(BlankShareGptTestCases.class,
          "Configuration error: sweep on method [BlankShareGptTestCases#sweep]: @Dataset(format = "
          + "SHAREGPT): src/test/resources/datasets/bad/blank.json: is empty; expected a ShareGPT file: "
          + "[{\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, {\"from\": \"gpt\", \"value\": \"...\"}]}, ...]");
    }

    @Test
    void aFileThatIsNotItsFormatFailsBeforeAnyRequest() {
      assertNoLoad(ShareGptAsChatTestCases.class,
          "Configuration error: sweep on method [ShareGptAsChatTestCases#sweep]: @Dataset(format = "
          + "OPENAI_CHAT): src/test/resources/datasets/sharegpt-small.json line 1: starts a JSON array, so "
          + "it is not JSON Lines (a ShareGPT file is one JSON array: format SHAREGPT); expected one JSON "
          + "object per line, like {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}], \"max_tokens\": 128} "
          + "(max_tokens, temperature, tools, response_format optional)");
      assertNoLoad(ChatAsShareGptTestCases.class,
          "Configuration error: sweep on method [ChatAsShareGptTestCases#sweep]: @Dataset(format = "
          + "SHAREGPT): src/test/resources/datasets/chat.jsonl line 1: is not a JSON array (it starts with "
          + "an object: JSON Lines are format OPENAI_CHAT or VLLM_CUSTOM); expected a ShareGPT file: "
          + "[{\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, {\"from\": \"gpt\", \"value\": \"...\"}]}, ...]");
    }

    @Test
    void aMissingFileFailsBeforeAnyRequest() {
      assertNoLoad(MissingFileTestCases.class,
          "Configuration error: sweep on method [MissingFileTestCases#sweep]: @Dataset(format = OPENAI_CHAT): "
          + Path.of("src/test/resources/datasets/no-such-file.jsonl").toAbsolutePath() + ": no such file; expected a path "
          + "relative to " + Path.of("").toAbsolutePath() + " or an absolute one");
    }

    @Test
    void aDistributionThatDoesNotParseFailsBeforeAnyRequest() {
      assertNoLoad(BadDistributionTestCases.class,
          "Configuration error: sweep on method [BadDistributionTestCases#sweep]: @Workload "
          + "'inputLength': 'normal(480)' is not a length distribution: normal takes 2 numbers (and min=, "
          + "max=), got 1, e.g. normal(480,240,min=1,max=2048); write e.g. 128, uniform(64,512), "
          + "normal(480,240,min=1,max=2048), lognormal(512,400,max=8192) or empirical(128:50,512:30,2048:20)");
    }

    @Test
    void aDistributionSettingThatDoesNotParseNamesTheSetting() {
      try (StubEngine stub = StubEngine.builder().start()) {
        BenchKit.Run run = BenchKit.run(DistributionTestCases.class, "llmbench.base-url", stub.url(),
            "llmbench.workload.output-length", "lognormal(100,200)");
        assertThat(run).hasSingleFailure().failedWith(ExtensionConfigurationException.class)
            .hasMessage("Configuration error: sweep on method [DistributionTestCases#sweep]: "
              + "llmbench.workload.output-length 'lognormal(100,200)' (from configuration parameter "
              + "llmbench.workload.output-length) is not usable: 'lognormal(100,200)' is not a length "
              + "distribution: lognormal(mean,median) needs mean >= median > 0 (a right tail), was 100, 200; "
              + "write e.g. 128, uniform(64,512), normal(480,240,min=1,max=2048), lognormal(512,400,max=8192) "
              + "or empirical(128:50,512:30,2048:20)");
        assertThat(run.tests().started().count()).isZero();
        assertThat(stub.bodies()).isEmpty();
      }
    }

    @Test
    void aDatasetBesidePromptsIsAConfigurationError() {
      assertNoLoad(DatasetAndPromptsTestCases.class,
          "Configuration error: sweep on method [DatasetAndPromptsTestCases#sweep]: @Dataset gives the "
          + "prompts, so @Workload's 'prompt', 'prompts', 'inputTokens' and 'inputLength' (or "
          + "llmbench.workload.input-length) must stay unset; remove them or the @Dataset");
    }
  }

  /** {@code fixture} fails before any level starts or any request is sent, with {@code message}. */
  private static void assertNoLoad(Class<?> fixture, String message) {
    assertNoLoad(fixture, thrown -> thrown.hasMessage(message));
  }

  /** {@code fixture} fails before any level starts or any request is sent, its exception as {@code exception} says. */
  private static void assertNoLoad(Class<?> fixture, Consumer<AbstractThrowableAssert<?, ? extends Throwable>> exception) {
    try (StubEngine stub = StubEngine.builder().start()) {
      BenchKit.Run run = BenchKit.run(fixture, "llmbench.base-url", stub.url());
      exception.accept(assertThat(run).hasSingleFailure().failedWith(ExtensionConfigurationException.class));
      assertThat(run.tests().started().count()).as("levels started").isZero();
      assertThat(stub.bodies()).as("requests the server received").isEmpty();
    }
  }

  private static JsonNode find(List<JsonNode> bodies, String text) {
    return bodies.stream().filter(b -> StreamSupport.stream(b.path("messages").spliterator(), false)
        .anyMatch(m -> m.path("content").asText().contains(text))).findFirst().orElseThrow(() -> new AssertionError(text));
  }

  // ----- fixtures

  static final String DATA = "src/test/resources/datasets/";

  static class ShareGptTestCases {
    @ConcurrencySweep(2)
    @Dataset(path = DATA + "sharegpt-small.json", format = Dataset.Format.SHAREGPT)
    @Measurement(requests = 6)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class ChatTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "chat.jsonl", format = Dataset.Format.OPENAI_CHAT)
    @Workload(maxTokens = 32)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class CustomTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "custom.jsonl", format = Dataset.Format.VLLM_CUSTOM, rows = 3)
    @Measurement(requests = 6)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class FixedOutputTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "custom.jsonl", format = Dataset.Format.VLLM_CUSTOM, outputLength = Dataset.OutputLength.WORKLOAD)
    @Workload(maxTokens = 7)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class DistributionTestCases {
    @ConcurrencySweep(2)
    @Workload(inputLength = "uniform(20,40)", outputLength = "empirical(4:50,8:50)")
    @Measurement(requests = 20)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static final String FIFTY = "target/dataset-tests/fifty.jsonl";

  static class RandomSampleTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = FIFTY, format = Dataset.Format.VLLM_CUSTOM, rows = 5, sample = Dataset.Sample.RANDOM)
    @Workload(seed = 11)
    @Measurement(requests = 5)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class OtherSeedTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = FIFTY, format = Dataset.Format.VLLM_CUSTOM, rows = 5, sample = Dataset.Sample.RANDOM)
    @Workload(seed = 12)
    @Measurement(requests = 5)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class NormalTestCases {
    @ConcurrencySweep(2)
    @Workload(inputLength = "normal(30,6,min=20,max=40)", outputLength = "lognormal(6,5,min=2,max=12)")
    @Measurement(requests = 30)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class FixedLengthTestCases {
    @ConcurrencySweep(1)
    @Workload(inputLength = "fixed(25)", outputLength = "9")
    @Measurement(requests = 6)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class NotJsonTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "bad/chat-not-json.jsonl", format = Dataset.Format.OPENAI_CHAT)
    void sweep(SweepLevelResult r) {}
  }

  static class MissingFieldTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "bad/chat-missing-messages.jsonl", format = Dataset.Format.OPENAI_CHAT)
    void sweep(SweepLevelResult r) {}
  }

  static class NegativeLengthTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "bad/custom-negative-length.jsonl", format = Dataset.Format.VLLM_CUSTOM)
    void sweep(SweepLevelResult r) {}
  }

  static class EmptyFileTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "bad/empty.jsonl", format = Dataset.Format.VLLM_CUSTOM)
    void sweep(SweepLevelResult r) {}
  }

  static class BlankShareGptTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "bad/blank.json", format = Dataset.Format.SHAREGPT)
    void sweep(SweepLevelResult r) {}
  }

  static class ShareGptAsChatTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "sharegpt-small.json", format = Dataset.Format.OPENAI_CHAT)
    void sweep(SweepLevelResult r) {}
  }

  static class ChatAsShareGptTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "chat.jsonl", format = Dataset.Format.SHAREGPT)
    void sweep(SweepLevelResult r) {}
  }

  static class MissingFileTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "no-such-file.jsonl", format = Dataset.Format.OPENAI_CHAT)
    void sweep(SweepLevelResult r) {}
  }

  static class BadDistributionTestCases {
    @ConcurrencySweep(1)
    @Workload(inputLength = "normal(480)")
    void sweep(SweepLevelResult r) {}
  }

  static class DatasetAndPromptsTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = DATA + "custom.jsonl", format = Dataset.Format.VLLM_CUSTOM)
    @Workload(inputTokens = 64)
    void sweep(SweepLevelResult r) {}
  }
}
