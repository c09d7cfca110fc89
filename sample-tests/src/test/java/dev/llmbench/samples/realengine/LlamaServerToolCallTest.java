package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.client.RequestResult;
import dev.llmbench.workload.ToolCalls;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;

/**
 * A tool-call workload on llama-server started with {@code --jinja} (2 slots on 8094, by {@code scripts/real-engine.sh}),
 * every reply checked on the real stream. The tiny seeded model writes gibberish: llama-server then sends it as text,
 * not as a call, so with {@code tool_choice: required} the replies are unparsed, and the level must say so with a
 * reason for each one, never crash or fail its requests. Whatever calls the server does send are judged against the
 * tools' schemas.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8094", readyTimeout = "2m")
class LlamaServerToolCallTest {

  @ConcurrencySweep({1, 2})
  @ToolCalls(file = "src/test/resources/agents/tools.json", choice = "required")
  @Workload(maxTokens = 24, temperature = 1)
  @Measurement(requests = 12)
  @Warmup(requests = 0)
  void repliesAreCheckedOnTheRealStream(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    Map<String, Long> reasons = new TreeMap<>();
    for (RequestResult r : level.requests()) r.unparsedBecause().ifPresent(why -> reasons.merge(kind(why), 1L, Long::sum));
    System.out.printf("%s | llama-server tool calls: %d of %d checked unparsed (%.0f%%), %d with a tool call; %s%n",
        level.label(), level.unparsedReplies(), level.checkedReplies(), level.unparsedRate() * 100,
        level.toolCallTtft().count(), reasons);
    // tool_choice is required, so every successful reply is judged: a call's arguments, or the missing call.
    assertThat(level.checkedReplies()).isEqualTo(level.succeeded());
    assertThat(level.requests()).filteredOn(RequestResult::succeeded).allSatisfy(r -> assertThat(r.replyChecked()).isTrue());
    assertThat(reasons.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(level.unparsedReplies());
    // A reply without any call is unparsed; so at least the replies that made no call are.
    assertThat(level.unparsedReplies()).isGreaterThanOrEqualTo(level.succeeded() - level.toolCallTtft().count());
    assertThat(level).unparsedRate().isBetween(0.0, 1.0);
  }

  /** The kind of a reason, without the model's text in it. */
  private static String kind(String why) {
    if (why.startsWith("no tool call")) return "no tool call";
    if (why.contains("names no tool")) return "unknown tool";
    if (why.contains("not JSON")) return "arguments not JSON";
    if (why.contains("miss the tool's parameters")) return "arguments miss the schema";
    return why;
  }
}
