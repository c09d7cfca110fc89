package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.datasets.Dataset;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import dev.llmbench.trace.Trace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a level says it sent is what the wire carried (#36): the server records every body, and each label is checked
 * against them.
 */
class LabelsTruthTests {

  private static final ObjectMapper JSON = new ObjectMapper();
  static final String DATA = "src/test/resources/datasets/";
  static final String TRACE = "target/labels-tests/trace.jsonl";

  private static JsonNode level(BenchKit.Run run, Class<?> fixture, String label) throws IOException {
    return JSON.readTree(Files.readString(run.sweepDir(fixture, "sweep").resolve(label + ".json"))).path("llmbench");
  }

  /** The bodies after the readiness probe (max_tokens 1, one message): the warm-up's, then the level's. */
  private static List<JsonNode> sent(StubEngine stub) {
    return stub.bodies().stream().filter(b -> b.path("max_tokens").asInt() != 1 || b.path("messages").size() > 1).toList();
  }

  private static IntSummaryStatistics maxTokens(List<JsonNode> bodies) {
    return bodies.stream().mapToInt(b -> b.path("max_tokens").asInt()).summaryStatistics();
  }

  private static void assertAsked(JsonNode asked, IntSummaryStatistics wire) {
    assertThat(asked.path("min").asInt()).as("least max_tokens asked").isEqualTo(wire.getMin());
    assertThat(asked.path("max").asInt()).as("most max_tokens asked").isEqualTo(wire.getMax());
    assertThat(asked.path("requests").asLong()).as("requests").isEqualTo(wire.getCount());
    assertThat(asked.path("mean").asDouble()).isEqualTo(Math.round(wire.getAverage() * 10) / 10.0);
  }

  /** Every step of every finding, and every warning, of a level: the advice it was given. */
  private static List<String> advice(JsonNode level) {
    List<String> out = new ArrayList<>();
    level.path("findings").forEach(f -> f.path("next_steps").forEach(s -> out.add(s.asText())));
    level.path("warnings").forEach(w -> out.add(w.asText()));
    return out;
  }

  @Test
  void aDatasetLevelAndItsWarmUpReportTheMaxTokensTheirRowsAsked() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(DatasetTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=2");
      List<JsonNode> bodies = sent(stub);
      JsonNode level = level(run, DatasetTestCases.class, "C=2");
      int warmups = level.path("warmup").path("requests").asInt();
      assertThat(warmups).isEqualTo(2);
      assertThat(bodies).hasSize(warmups + 6);
      IntSummaryStatistics warm = maxTokens(bodies.subList(0, warmups));
      IntSummaryStatistics measured = maxTokens(bodies.subList(warmups, bodies.size()));
      assertThat(measured.getMin()).as("the rows ask different lengths").isLessThan(measured.getMax());
      assertAsked(level.path("max_tokens_asked"), measured);
      assertThat(level.has("max_tokens")).as("no single max_tokens: the @Workload default (128) was never sent").isFalse();
      // The warm-up's rows: one value or the largest, with their summary.
      assertThat(level.path("warmup").path("max_tokens").asInt()).isEqualTo(warm.getMax());
      assertAsked(level.path("warmup").path("max_tokens_asked"), warm);
    }
  }

  @Test
  void aTraceLevelUnderASweepReportsTheLargestItSentNotTheFilesLargest() throws IOException {
    Files.createDirectories(Path.of(TRACE).getParent());
    List<String> rows = new ArrayList<>();
    // Output lengths 2..13: the first 6 rows (what a level of 6 requests sends) ask 2..7, the file's largest is 13.
    for (int i = 0; i < 12; i++) {
      rows.add("{\"timestamp\": " + i + ", \"input_length\": 20, \"output_length\": " + (2 + i) + ", \"hash_ids\": [" + i + ", " + (100 + i) + "]}");
    }
    Files.write(Path.of(TRACE), rows);
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(TraceTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=2");
      List<JsonNode> bodies = sent(stub);
      JsonNode level = level(run, TraceTestCases.class, "C=2");
      int warmups = level.path("warmup").path("requests").asInt();
      IntSummaryStatistics measured = maxTokens(bodies.subList(warmups, bodies.size()));
      assertThat(measured.getMax()).isLessThan(13);
      assertAsked(level.path("max_tokens_asked"), measured);
      assertAsked(level.path("warmup").path("max_tokens_asked"), maxTokens(bodies.subList(0, warmups)));
      // It sent ignore_eos on every request: no finding advises it to (#36 item 8).
      assertThat(bodies).allSatisfy(body -> assertThat(body.path("ignore_eos").asBoolean()).isTrue());
      assertThat(advice(level)).noneMatch(step -> step.contains("ignoreEos = true"));
    }
  }

  @Test
  void aSessionsLevelReportsTheSessionsAndTurnsItSentBesideTheFiles() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(SessionsTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1");
      List<JsonNode> turns = sent(stub);
      long firstTurns = turns.stream().filter(b -> { // a session's first turn carries one user message
        int users = 0;
        for (JsonNode m : b.path("messages")) users += m.path("role").asText().equals("user") ? 1 : 0;
        return users == 1;
      }).count();
      JsonNode sessions = level(run, SessionsTestCases.class, "C=1").path("sessions");
      assertThat(sessions.path("sessions_sent").asLong()).isEqualTo(firstTurns).isEqualTo(1);
      assertThat(sessions.path("turns_sent").asLong()).isEqualTo(turns.size());
      // A sessions level counts sessions: @Measurement(rounds or requests) would be a configuration error there.
      assertThat(advice(level(run, SessionsTestCases.class, "C=1"))).noneMatch(step -> step.contains("@Measurement(r"));
      assertThat(sessions.path("sessions").asText()).startsWith("2 conversations of chats.jsonl");
      assertThat(Files.readString(run.sweepDir(SessionsTestCases.class, "sweep").resolve("table.txt")))
          .contains("C=1 | sessions: 1 session sent (" + turns.size() + " turns) of 2 conversations of chats.jsonl");
    }
  }

  static final String MODEL_FIRST_SHAREGPT = "target/labels-tests/model-first.json";
  static final String MODEL_FIRST_JSONL = "target/labels-tests/model-first.jsonl";

  /** Three conversations, one of which opens with the model's greeting (after a system prompt). */
  static void modelFirstFiles() throws IOException {
    Files.createDirectories(Path.of(MODEL_FIRST_SHAREGPT).getParent());
    Files.writeString(Path.of(MODEL_FIRST_SHAREGPT), """
        [{"conversations": [{"from": "human", "value": "What is the capital of France, in one word?"}, {"from": "gpt", "value": "Paris, of course."}]},
         {"conversations": [{"from": "system", "value": "Be brief."}, {"from": "gpt", "value": "Hello! How can I help you today?"},
                            {"from": "human", "value": "Name three primary colours, please."}, {"from": "gpt", "value": "Red, yellow and blue."}]},
         {"conversations": [{"from": "human", "value": "Say hello to the whole wide world."}, {"from": "gpt", "value": "Hello, world!"}]}]
        """);
    Files.write(Path.of(MODEL_FIRST_JSONL), List.of(
        "{\"messages\": [{\"role\": \"user\", \"content\": \"Hi there\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}]}",
        "{\"messages\": [{\"role\": \"assistant\", \"content\": \"How can I help?\"}, {\"role\": \"user\", \"content\": \"Tell me a joke\"}]}",
        "{\"messages\": [{\"role\": \"user\", \"content\": \"One\"}, {\"role\": \"assistant\", \"content\": \"Two\"}, {\"role\": \"user\", \"content\": \"Three\"}]}"));
  }

  @Test
  void aConversationThatOpensWithTheModelsTurnIsAWarningWithItsCountNeverSilent() throws IOException {
    modelFirstFiles();
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(ModelFirstTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1");
      assertThat(sent(stub)).noneMatch(b -> b.toString().contains("How can I help"));
      assertThat(level(run, ModelFirstTestCases.class, "C=1").path("warnings").toString()).contains("1 of the 3 conversations "
          + "read from model-first.json began with the model's turn: it was not sent, each such row's prompt is its first human turn");
    }
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(ModelFirstSessionsTestCases.class, "llmbench.base-url", stub.url());
      assertThat(run).passed("C=1");
      assertThat(sent(stub)).noneMatch(b -> b.toString().contains("How can I help"));
      assertThat(level(run, ModelFirstSessionsTestCases.class, "C=1").path("warnings").toString()).contains("1 of the 3 "
          + "conversations of model-first.jsonl began with the model's turn: it was not sent, each such session starts at its "
          + "first user turn");
    }
  }

  static final String SHORT_LAST = "target/labels-tests/short-last.jsonl";

  /**
   * Rows of 18 tokens in 16-token blocks: their last block (2 tokens) is shorter than what the server adds, so the rest
   * comes off block 1, which the 32-token rows send whole.
   */
  @Test
  void aTraceRowWhoseLastBlockIsShorterThanTheTemplateIsReportedOnTheLevel() throws IOException {
    Files.createDirectories(Path.of(SHORT_LAST).getParent());
    Files.write(Path.of(SHORT_LAST), List.of(
        "{\"timestamp\": 0, \"input_length\": 32, \"output_length\": 2, \"hash_ids\": [1, 2]}",
        "{\"timestamp\": 1, \"input_length\": 18, \"output_length\": 2, \"hash_ids\": [1, 3]}",
        "{\"timestamp\": 2, \"input_length\": 32, \"output_length\": 2, \"hash_ids\": [1, 4]}",
        "{\"timestamp\": 3, \"input_length\": 18, \"output_length\": 2, \"hash_ids\": [1, 5]}"));
    BenchKit.Run run = BenchKit.run(ShortLastTestCases.class);
    assertThat(run).passed("C=1");
    JsonNode level = level(run, ShortLastTestCases.class, "C=1");
    int overhead = level.path("input_alignment").path("template_tokens").asInt();
    assertThat(overhead).as("the engine's template and lead word").isGreaterThan(2);
    assertThat(level.path("warnings").toString()).contains("2 of the 4 rows of short-last.jsonl this level sent that share blocks have a last "
        + "block shorter than what the server adds (" + overhead + " tokens: its chat template and the lead word, counted by ")
        .contains("each takes the rest, " + (overhead - 2) + " tokens, off the end of its earlier full blocks, so it shares that "
            + "many tokens fewer with the rows that send those blocks whole (lines 2, 4)");
  }

  /**
   * Reported per level (#36 item 9): a level that sent the first 2 rows counts the one short row it sent (line 2) among
   * the 2 it sent; a level that sent only the first row, which is whole, says nothing of the file's short rows.
   */
  @Test
  void aTraceRowWhoseLastBlockIsShorterThanTheTemplateIsCountedByTheLevelsThatSentIt() throws IOException {
    Files.createDirectories(Path.of(SHORT_LAST).getParent());
    Files.write(Path.of(SHORT_LAST), List.of(
        "{\"timestamp\": 0, \"input_length\": 32, \"output_length\": 2, \"hash_ids\": [1, 2]}",
        "{\"timestamp\": 1, \"input_length\": 18, \"output_length\": 2, \"hash_ids\": [1, 3]}",
        "{\"timestamp\": 2, \"input_length\": 32, \"output_length\": 2, \"hash_ids\": [1, 4]}",
        "{\"timestamp\": 3, \"input_length\": 18, \"output_length\": 2, \"hash_ids\": [1, 5]}"));
    BenchKit.Run two = BenchKit.run(ShortLastTwoRowsTestCases.class);
    assertThat(two).passed("C=1");
    JsonNode level = level(two, ShortLastTwoRowsTestCases.class, "C=1");
    int overhead = level.path("input_alignment").path("template_tokens").asInt();
    assertThat(level.path("warnings").toString()).contains("1 of the 2 rows of short-last.jsonl this level sent that share "
        + "blocks have a last block shorter than what the server adds (" + overhead + " tokens: its chat template and the lead "
        + "word, counted by ").contains("each takes the rest, " + (overhead - 2) + " tokens, off the end of its earlier full "
        + "blocks, so it shares that many tokens fewer with the rows that send those blocks whole (lines 2)");
    BenchKit.Run one = BenchKit.run(ShortLastOneRowTestCases.class);
    assertThat(one).passed("C=1");
    assertThat(level(one, ShortLastOneRowTestCases.class, "C=1").path("warnings").toString())
        .doesNotContain("last block shorter");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ShortLastTwoRowsTestCases {
    @ConcurrencySweep(1)
    @Trace(value = SHORT_LAST, blockSize = 16)
    @dev.llmbench.workload.ExactInputTokens
    @dev.llmbench.Measurement(requests = 2)
    @dev.llmbench.Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(2);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ShortLastOneRowTestCases {
    @ConcurrencySweep(1)
    @Trace(value = SHORT_LAST, blockSize = 16)
    @dev.llmbench.workload.ExactInputTokens
    @dev.llmbench.Measurement(requests = 1)
    @dev.llmbench.Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(1);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ShortLastTestCases {
    @ConcurrencySweep(1)
    @Trace(value = SHORT_LAST, blockSize = 16)
    @dev.llmbench.workload.ExactInputTokens
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  @LlmEndpoint
  static class ModelFirstTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = MODEL_FIRST_SHAREGPT, format = Dataset.Format.SHAREGPT)
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  @LlmEndpoint
  static class ModelFirstSessionsTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Warmup(requests = 0)
    @dev.llmbench.sessions.Sessions(file = MODEL_FIRST_JSONL, format = dev.llmbench.sessions.Sessions.Format.JSONL, sessions = 3)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  @LlmEndpoint
  static class SessionsTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Warmup(requests = 0)
    @dev.llmbench.sessions.Sessions(file = DATA + "sessions/chats.jsonl", format = dev.llmbench.sessions.Sessions.Format.JSONL, sessions = 1)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  @LlmEndpoint
  static class DatasetTestCases {
    @ConcurrencySweep(2)
    @Dataset(path = DATA + "sharegpt-small.json", format = Dataset.Format.SHAREGPT)
    @Measurement(requests = 6)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  @LlmEndpoint
  static class TraceTestCases {
    @ConcurrencySweep(2)
    @Trace(value = TRACE, blockSize = 16)
    @Measurement(requests = 6)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }
}
