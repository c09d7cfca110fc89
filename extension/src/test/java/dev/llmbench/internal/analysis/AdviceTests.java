package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.load.AdviceSetting;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RowSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import dev.llmbench.testkit.Levels;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A finding's advice is checked against the level's kind and settings before it is given (#36 item 8). */
class AdviceTests {

  static final String IGNORE_EOS_STEP = "send ignore_eos so every request generates max_tokens: @Workload(ignoreEos = true)";
  static final String CACHE_STEP = "keep levels out of each other's cache: @Workload(prefixCache = AVOID), the default";

  /** Rows that take only a duration beside them, as sessions and agents do, and advise their own count instead. */
  static final RowSource SESSIONS_LIKE = new RowSource() {
    @Override
    public CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace) {
      return CompletionRequest.of("hi");
    }

    @Override
    public boolean takes(WorkloadSource.Beside beside) {
      return beside == WorkloadSource.Beside.DURATION_OR_TARGET;
    }

    @Override
    public Optional<String> instead(AdviceSetting setting) {
      return Optional.of("measure more sessions: @Sessions(sessions = N)");
    }
  };

  static RequestTrace trace(int i, boolean ignoreEos) {
    long ms = 1_000_000L;
    return RequestTrace.builder().times(i * ms, i * ms, (i + 20) * ms).startedAt(Instant.EPOCH).status(200).streamed(true)
        .token((i + 5) * ms, true, false).token((i + 10) * ms, true, false).usage(new Usage(5, 2, null))
        .asked(16, ignoreEos).build();
  }

  static MeasuredLevel level(LoadShape load, PromptSource prompts, boolean ignoreEos, boolean sentIgnoreEos,
      dev.llmbench.Workload.PrefixCache cache) {
    LevelPlan plan = new LevelPlan("L", load, new StopRule.Count(4), new WorkloadPlan(16, 0, ignoreEos, null, prompts, cache), 0, 1);
    return new MeasuredLevel(plan, Levels.ENDPOINT, java.util.stream.IntStream.range(0, 4)
        .mapToObj(i -> RequestMetrics.of(trace(i, sentIgnoreEos))).toList(), ServiceLevels.none(), List.of(50.0),
        StopReason.REQUEST_COUNT, null, List.of());
  }

  static final LoadShape CLOSED = new LoadShape.ClosedLoop(2);

  @Test
  void aSessionsLevelIsAdvisedItsOwnCountNeverMeasurementRounds() {
    MeasuredLevel sessions = level(CLOSED, PromptSource.rows("sessions", SESSIONS_LIKE), false, false,
        dev.llmbench.Workload.PrefixCache.REUSE);
    assertThat(sessions.accepts(AdviceSetting.MEASUREMENT_ROUNDS)).isFalse();
    assertThat(FindingBuilder.taken(List.of(ReadingCauses.ROUNDS_STEP, "look at the server's log"), List.of(sessions)))
        .containsExactly("measure more sessions: @Sessions(sessions = N)", "look at the server's log");
  }

  @Test
  void aLevelThatSentIgnoreEosIsNotAdvisedToSendIt() {
    MeasuredLevel sent = level(CLOSED, PromptSource.builtIn(1), true, true, dev.llmbench.Workload.PrefixCache.REUSE);
    assertThat(FindingBuilder.taken(List.of(IGNORE_EOS_STEP), List.of(sent))).singleElement().asString()
        .startsWith("the level asked ignore_eos already").doesNotContain("ignoreEos = true");
    // A level that did not send it is advised to.
    MeasuredLevel not = level(CLOSED, PromptSource.builtIn(1), false, false, dev.llmbench.Workload.PrefixCache.REUSE);
    assertThat(FindingBuilder.taken(List.of(IGNORE_EOS_STEP, ReadingCauses.ROUNDS_STEP, CACHE_STEP), List.of(not)))
        .containsExactly(IGNORE_EOS_STEP, ReadingCauses.ROUNDS_STEP, CACHE_STEP);
  }

  @Test
  void aLevelAlreadyOutOfTheCacheAndAnOpenLoopAreNotAdvisedWhatTheyCannotTake() {
    MeasuredLevel avoiding = level(CLOSED, PromptSource.builtIn(1), false, false, dev.llmbench.Workload.PrefixCache.AVOID);
    assertThat(FindingBuilder.taken(List.of(CACHE_STEP), List.of(avoiding))).isEmpty();
    MeasuredLevel open = level(new LoadShape.OpenLoop(Rate.requestsPerSecond(2), 1, OptionalInt.empty()), PromptSource.builtIn(1),
        false, false, dev.llmbench.Workload.PrefixCache.REUSE);
    assertThat(FindingBuilder.taken(List.of(ReadingCauses.ROUNDS_STEP), List.of(open))).isEmpty();
    // A finding over two levels gives a step only when both take it.
    MeasuredLevel sessions = level(CLOSED, PromptSource.rows("sessions", SESSIONS_LIKE), false, false,
        dev.llmbench.Workload.PrefixCache.REUSE);
    assertThat(FindingBuilder.taken(List.of(ReadingCauses.ROUNDS_STEP), List.of(avoiding, sessions)))
        .containsExactly("measure more sessions: @Sessions(sessions = N)");
  }
}
