package dev.llmbench.workload;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.datasets.Dataset;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Tool calls and JSON answers as a sweep's workload, run through the Jupiter engine against the embedded engine:
 * every reply checked, the unparsed rate and the time to the first tool call per level, the assertion on it, and
 * tool schemas that are not JSON (or not schemas) refused before any request.
 */
class ToolCallSweepTests {

  static final String AGENTS = "src/test/resources/agents/";

  @Test
  void everyToolCallIsCheckedAndTheLevelReportsItsUnparsedRateAndTimeToFirstToolCall() {
    assertThat(BenchKit.run(AgentTestCases.class)).passed("C=1", "C=4");
  }

  @Test
  void argumentsCutUnderLoadRaiseTheUnparsedRateOfTheHeavierLevelOnly() {
    assertThat(BenchKit.run(CutUnderLoadTestCases.class, "llmbench.embedded.malformed-above", "1")).passed("C=1", "C=4");
  }

  @Test
  void theAssertionFailsWithTheRateTheCountsAndTheReasons() {
    BenchKit.Run run = BenchKit.run(StrictTestCases.class, "llmbench.embedded.malformed-above", "1");
    assertThat(run).hasSingleFailedTest().failedWith(AssertionError.class).hasMessageMatching(Messages.pattern("C=4: expected "
        + "an unparsed rate of at most 0.0% but it was {n}% ({n} of {n} checked replies):\n"
        + "  - {n} x tool call 'get_weather': its arguments are not JSON: {*}"));
  }

  @Test
  void theAssertionFailsWhenNothingWasChecked() {
    BenchKit.Run run = BenchKit.run(NothingCheckedTestCases.class);
    assertThat(run).hasSingleFailedTest().failedWith(AssertionError.class).hasMessage("C=1: expected an unparsed rate of at "
        + "most 10.0% but no reply was checked (2 succeeded): ask for tools (@ToolCalls, a row's \"tools\") or a JSON answer "
        + "(@StructuredOutput, a row's \"response_format\")");
  }

  @Test
  void aJsonAnswerIsCheckedAgainstItsSchema() {
    assertThat(BenchKit.run(StructuredTestCases.class)).passed("C=2");
  }

  @Test
  void theWorkloadsToolsReachEveryRequestWithTheirChoiceAndWithoutIgnoreEos() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(StubToolTestCases.class, "llmbench.base-url", stub.url())).passed("C=1");
      List<JsonNode> bodies = stub.bodies().stream().filter(b -> b.has("tools")).toList();
      assertThat(bodies).hasSize(3);
      assertThat(bodies).allSatisfy(b -> {
        assertThat(b.path("tools").get(1).path("function").path("name").asText()).isEqualTo("get_time");
        assertThat(b.path("tool_choice").path("function").path("name").asText()).isEqualTo("get_weather");
        assertThat(b.has("ignore_eos")).isFalse();
      });
    }
  }

  @Nested
  @DisplayName("bad input is refused before any request, naming the file and the field")
  class BadInput {

    @Test
    void aToolsFileThatIsNotJsonFailsBeforeAnyRequest() {
      assertNoLoad(NotJsonTestCases.class,
          "Configuration error: sweep on method [NotJsonTestCases#sweep]: @ToolCalls 'file': "
          + AGENTS + "tools-not-json.json is not JSON (line 3, column 80: Unexpected "
          + "character ('}' (code 125)): was expecting double-quote to start field name); write it as JSON, "
          + "e.g. [{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": {\"type\": "
          + "\"object\"}}}] for tools or {\"type\": \"object\", \"properties\": {...}} for a schema");
    }

    @Test
    void aToolSchemaThatIsNotASchemaFailsBeforeAnyRequest() {
      // After "it is not a JSON Schema:", the schema validator's own findings: its words and order to choose.
      assertNoLoadMatching(BadSchemaTestCases.class, Messages.pattern("Configuration error: sweep on method "
          + "[BadSchemaTestCases#sweep]: @ToolCalls file " + AGENTS + "tools-bad-schema.json: tools[0].function.parameters "
          + "(tool 'get_weather'): it is not a JSON Schema: {*}; fix the file so that every schema is a JSON Schema"));
    }

    @Test
    void aRowsToolSchemaThatIsNotASchemaFailsBeforeAnyRequestNamingItsLine() {
      assertNoLoadMatching(BadRowTestCases.class, Messages.pattern("Configuration error: sweep on method "
          + "[BadRowTestCases#sweep]: openai-chat:chat-bad-tool-schema.jsonl line 2: tools[0].function.parameters "
          + "(tool 'get_weather'): it is not a JSON Schema: {*}; fix the row so that its schemas are JSON Schemas"));
    }

    @Test
    void aToolChoiceNamingNoToolFailsBeforeAnyRequest() {
      assertNoLoad(UnknownChoiceTestCases.class,
          "Configuration error: sweep on method [UnknownChoiceTestCases#sweep]: @ToolCalls file "
          + AGENTS + "tools.json: \"tool_choice\" names 'send_mail', which is none of the "
          + "tools (get_weather, get_time); set @ToolCalls(choice) to one of them, or to auto, required or none");
    }
  }

  private static void assertNoLoad(Class<?> fixture, String message) {
    assertNoLoad(fixture, thrown -> thrown.hasMessage(message));
  }

  private static void assertNoLoadMatching(Class<?> fixture, String pattern) {
    assertNoLoad(fixture, thrown -> thrown.hasMessageMatching(pattern));
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

  // ----- fixtures

  static class AgentTestCases {
    @ConcurrencySweep({1, 4})
    @ToolCalls(file = AGENTS + "tools.json", choice = "required")
    @Measurement(requests = 12)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors().hasUnparsedRateAtMost(0.0);
      assertThat(r.checkedReplies()).isEqualTo(12);
      assertThat(r.unparsedReplies()).isZero();
      // Every reply is a call, and no text comes before it: its first token is its first tool-call token.
      assertThat(r.toolCallTtft().count()).isEqualTo(12);
      assertThat(r.toolCallTtft().percentile(50)).isEqualTo(r.ttft().percentile(50));
      assertThat(r.requests()).allSatisfy(q -> assertThat(q.finishReason()).contains("tool_calls"));
      assertThat(Metric.UNPARSED_RATE.valueOf(r)).isZero();
    }
  }

  static class CutUnderLoadTestCases {
    @ConcurrencySweep({1, 4})
    @ToolCalls(file = AGENTS + "tools.json", choice = "required")
    @Measurement(requests = 20)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.checkedReplies()).isEqualTo(20);
      if (r.concurrency() == 1) {
        assertThat(r).hasUnparsedRateAtMost(0.0);
      } else {
        // With 4 in flight, a request that finds 2 or more others in the engine as it arrives is cut. How many do
        // depends on how the machine schedules the client (at load 11 on 2 cores, once exactly half), so the level
        // is held to C=1's rate of the same run, 0, not to a share.
        assertThat(r).unparsedRate().isGreaterThan(0.0);
        assertThat(r.requests().stream().flatMap(q -> q.unparsedBecause().stream()))
            .allSatisfy(why -> assertThat(why).startsWith("tool call 'get_weather': its arguments are not JSON"));
      }
    }
  }

  static class StrictTestCases {
    @ConcurrencySweep(4)
    @ToolCalls(file = AGENTS + "tools.json", choice = "required")
    @Measurement(requests = 12)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasUnparsedRateAtMost(0.0);
    }
  }

  static class NothingCheckedTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 8)
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasUnparsedRateAtMost(0.1);
    }
  }

  static class StructuredTestCases {
    @ConcurrencySweep(2)
    @StructuredOutput(schema = AGENTS + "answer.schema.json")
    @Measurement(requests = 6)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors().hasUnparsedRateAtMost(0.0);
      assertThat(r.checkedReplies()).isEqualTo(6);
      assertThat(r.toolCallTtft().isEmpty()).isTrue();
    }
  }

  static class StubToolTestCases {
    @ConcurrencySweep(1)
    @ToolCalls(file = AGENTS + "tools.json", choice = "get_weather")
    @Measurement(requests = 3)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
    }
  }

  static class NotJsonTestCases {
    @ConcurrencySweep(1)
    @ToolCalls(file = AGENTS + "tools-not-json.json")
    void sweep(SweepLevelResult r) {}
  }

  static class BadSchemaTestCases {
    @ConcurrencySweep(1)
    @ToolCalls(file = AGENTS + "tools-bad-schema.json")
    void sweep(SweepLevelResult r) {}
  }

  static class BadRowTestCases {
    @ConcurrencySweep(1)
    @Dataset(path = AGENTS + "chat-bad-tool-schema.jsonl", format = Dataset.Format.OPENAI_CHAT)
    void sweep(SweepLevelResult r) {}
  }

  static class UnknownChoiceTestCases {
    @ConcurrencySweep(1)
    @ToolCalls(file = AGENTS + "tools.json", choice = "send_mail")
    void sweep(SweepLevelResult r) {}
  }
}
