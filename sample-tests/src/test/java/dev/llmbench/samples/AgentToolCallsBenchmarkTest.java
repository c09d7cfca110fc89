package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.workload.ToolCalls;

/**
 * An agent's traffic: every request offers the agent's tools and must call one ({@code tool_choice: required}).
 * Each reply's tool-call arguments are checked as they arrive (JSON, matching the tool's {@code parameters}); the
 * level reports the share that did not parse beside its speed, as AIPerf's tool-calling accuracy does, and the time
 * to the first tool-call token. A parser or grammar that breaks calls only under load shows as an unparsed rate that
 * rises with C; here it must stay at zero.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class AgentToolCallsBenchmarkTest {

  @ConcurrencySweep({1, 4, 8})
  @ToolCalls(file = "src/test/resources/agents/tools.json", choice = "required")
  @Measurement(requests = 16)
  void toolCallsParseUnderLoad(SweepLevelResult level) {
    assertThat(level).hasNoErrors().hasUnparsedRateAtMost(0.0);
    assertThat(level).toolCallTtft().percentile(50).isLessThan(java.time.Duration.ofSeconds(2));
  }
}
