package dev.llmbench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.testkit.Levels;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the feature says of checked levels, embeddings levels, and of an unparsed rate that rises with load. */
class ReplyFeatureTests {

  private static final ReplyFeature FEATURE = new ReplyFeature();

  /** {@code n} tool-call replies, the first {@code unparsed} of them judged unparsed. */
  private static MeasuredLevel level(int concurrency, int n, int unparsed) {
    return Levels.closed(concurrency).requests(n, i -> {
      long start = i * 1_000_000L;
      RequestTrace t = RequestTrace.builder().times(start, start, start + 900_000).token(start + 200_000, true, false)
          .toolCall("get_weather", "{}").token(start + 300_000, true, false).finishReason("tool_calls").build();
      return i < unparsed ? t.withReplyCheck(false, "tool call 'get_weather': its arguments are not JSON: cut")
          : t.withReplyCheck(true, null);
    }).build();
  }

  private static SweepRun sweep() {
    return new SweepRun(ReplyFeatureTests.class, "sweep", Listeners.none());
  }

  @Test
  void aCheckedLevelSaysHowManyWereUnparsedWhyAndItsTimeToFirstToolCall() {
    MeasuredLevel l = level(4, 40, 10);
    FeatureSection s = FEATURE.level(sweep(), l).orElseThrow();
    assertThat(s.json().orElseThrow().path("checked").asInt()).isEqualTo(40);
    assertThat(s.json().get().path("unparsed").asInt()).isEqualTo(10);
    assertThat(s.json().get().path("unparsed_rate").asDouble()).isEqualTo(0.25);
    assertThat(s.json().get().path("reasons").path("tool call 'get_weather': its arguments are not JSON: cut").asInt()).isEqualTo(10);
    assertThat(s.json().get().path("tool_call_ttft_ms").path("count").asInt()).isEqualTo(40);
    assertThat(s.json().get().path("tool_call_ttft_ms").path("p50").asDouble()).isEqualTo(0.2);
    assertThat(s.console().get(0)).startsWith("C=4: 10 of 40 checked replies unparsed (25.0%)");
    assertThat(l.toolCallTtft().percentile(50)).contains(java.time.Duration.ofNanos(200_000));
  }

  @Test
  void aLevelWithNothingCheckedHasNoSection() {
    MeasuredLevel plain = Levels.closed(1).requests(3, i -> RequestTrace.builder().times(0, 0, 10).token(5, true, false)
        .finishReason("stop").build()).build();
    assertThat(FEATURE.level(sweep(), plain)).isEmpty();
  }

  @Test
  void anUnparsedRateThatRisesBeyondNoiseWithLoadIsAFinding() {
    Optional<FeatureSection> s = FEATURE.sweep(sweep(), List.of(level(1, 40, 0), level(4, 40, 2), level(16, 40, 25)));
    assertThat(s).isPresent();
    assertThat(s.get().findings()).singleElement().asString().startsWith("unparsed rate rises with load: 0.0% [")
        .contains("of 40 checked replies at C=1, 62.5% [").contains("at C=16").contains("e.g. tool call 'get_weather'");
  }

  @Test
  void aRiseWithinNoiseIsNoFinding() {
    assertThat(FEATURE.sweep(sweep(), List.of(level(1, 20, 1), level(16, 20, 3)))).isEmpty();
    assertThat(FEATURE.sweep(sweep(), List.of(level(1, 40, 25), level(16, 40, 0)))).as("falling").isEmpty();
  }
}
