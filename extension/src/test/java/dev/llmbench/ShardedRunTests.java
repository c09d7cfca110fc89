package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.compare.Capacity;
import dev.llmbench.compare.CapacitySearch;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.shard.Manifest;
import dev.llmbench.testkit.BenchKit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** One shard of a sharded run: its share of each level, in the level's slot, and its manifest. */
class ShardedRunTests {

  @Test
  void aShardRunsItsShareOfEachLevelInTheLevelsSlotAndKeepsAManifest() throws Exception {
    Instant start = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS); // 5 s ahead of level 2: past any readiness wait
    BenchKit.Run run = BenchKit.run(TwoLevelsTestCases.class, "llmbench.shard.count", "2", "llmbench.shard.index", "1",
        "llmbench.shard.start", start.toString(), "llmbench.shard.slot", "2s");
    run.tests().assertThatEvents()
        .haveExactly(1, event(displayName("C=1"), abortedWithReason(message(m -> m.contains("leaves shard 1 none")))))
        .haveExactly(1, event(displayName("C=4"), finishedSuccessfully()));
    Path dir = run.sweepDir(TwoLevelsTestCases.class, "sweep");
    assertThat(dir.resolve("C=1.json")).doesNotExist();
    JsonNode c4 = ResultJson.read(Files.readString(dir.resolve("C=4.json")));
    assertThat(c4.get("max_concurrency").asInt()).as("this shard's share of C=4").isEqualTo(2);
    assertThat(c4.get("completed").asInt()).as("its share of 8 requests").isEqualTo(4);
    assertThat(c4.get("llmbench").get("label").asText()).isEqualTo("C=4");

    Manifest manifest = Manifest.read(run.reportDir());
    assertThat(manifest.shard().index()).isEqualTo(1);
    assertThat(manifest.levels()).hasSize(2);
    Manifest.LevelEntry skipped = manifest.levels().get(0);
    assertThat(skipped.skipped()).contains("leaves shard 1 none");
    assertThat(skipped.result()).isEmpty();
    Manifest.LevelEntry ran = manifest.levels().get(1);
    assertThat(ran.slot()).isEqualTo(1);
    assertThat(ran.dueAt()).contains(start.plusSeconds(2));
    assertThat(ran.whole().concurrency()).isEqualTo(4);
    assertThat(ran.share().orElseThrow().concurrency()).isEqualTo(2);
    assertThat(((StopRule.Count) ran.share().orElseThrow().stop()).requests()).isEqualTo(4);
    Manifest.Result result = ran.result().orElseThrow();
    assertThat(result.requests()).isEqualTo(4);
    // The level waited for its slot: its warm-up began at the slot, its first measured send after it.
    assertThat(ran.late()).contains(Duration.ZERO);
    assertThat(result.firstSend()).isAfterOrEqualTo(start.plusSeconds(2));
    assertThat(Duration.between(start.plusSeconds(2), result.firstSend())).as("first send after the slot began")
        .isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void moreThanOneShardWithoutAScheduleIsAConfigurationError() {
    BenchKit.run(TwoLevelsTestCases.class, "llmbench.shard.count", "2").all().assertThatEvents().haveAtLeastOne(event(
        finishedWithFailure(instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("give every shard the same llmbench.shard.start")))));
  }

  @Test
  void anAdaptiveSweepCannotBeShardedAndTheErrorNamesTheMethod() {
    BenchKit.run(AdaptiveTestCases.class, "llmbench.shard.count", "2", "llmbench.shard.start", Instant.now().toString(),
        "llmbench.shard.slot", "1m").all().assertThatEvents().haveExactly(1, event(finishedWithFailure(
            instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("AdaptiveTestCases#sweep") && m.contains("C=2 is adaptive")))));
  }

  @Test
  void aDurationBoundedLevelLongerThanItsSlotIsAConfigurationError() {
    BenchKit.run(TimedTestCases.class, "llmbench.shard.start", Instant.now().toString(), "llmbench.shard.slot", "5s")
        .all().assertThatEvents().haveExactly(1, event(finishedWithFailure(
            instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("TimedTestCases#sweep") && m.contains("does not fit llmbench.shard.slot 5.000 s")))));
  }

  @Test
  void aCapacitySearchCannotBeShardedAndTheErrorSaysWhy() {
    BenchKit.run(CapacityTestCases.class, "llmbench.shard.count", "2", "llmbench.shard.start", Instant.now().toString(),
        "llmbench.shard.slot", "1m").all().assertThatEvents().haveExactly(1, event(finishedWithFailure(
            instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("CapacityTestCases#capacity") && m.contains("run capacity searches unsharded")))));
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class TwoLevelsTestCases {
    @ConcurrencySweep({1, 4})
    @Workload(maxTokens = 8)
    @Measurement(requests = 8)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class AdaptiveTestCases {
    @ConcurrencySweep(2)
    @Measurement(targetCiHalfWidth = 0.1)
    void sweep(SweepLevelResult level) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class CapacityTestCases {
    @CapacitySearch(concurrency = {1, 4})
    @Slo(tpot = "50ms", percentile = 50)
    void capacity(Capacity capacity) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class TimedTestCases {
    @ConcurrencySweep(2)
    @Measurement(duration = "5s", grace = "1s")
    void sweep(SweepLevelResult level) {}
  }
}
