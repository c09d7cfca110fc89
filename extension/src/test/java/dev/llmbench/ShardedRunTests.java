package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.capacity.Capacity;
import dev.llmbench.capacity.CapacitySearch;
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
import org.opentest4j.TestAbortedException;

/** One shard of a sharded run: its share of each level, in the level's slot, and its manifest. */
class ShardedRunTests {

  @Test
  void aShardRunsItsShareOfEachLevelInTheLevelsSlotAndKeepsAManifest() throws Exception {
    Instant start = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS); // 5 s ahead of level 2: past any readiness wait
    BenchKit.Run run = BenchKit.run(TwoLevelsTestCases.class, "llmbench.shard.count", "2", "llmbench.shard.index", "1",
        "llmbench.shard.start", start.toString(), "llmbench.shard.slot", "2s");
    assertThat(run).level("C=1").wasAbortedWith(TestAbortedException.class).hasMessage("C=1: 1 worker for 2 shards leaves shard 1 none; it skips the level and keeps the schedule");
    assertThat(run).level("C=4").succeeded();
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
    assertThat(BenchKit.run(TwoLevelsTestCases.class, "llmbench.shard.count", "2")).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: llmbench.shard.count is 2: the shards must share a schedule so "
            + "that their levels overlap; give every shard the same llmbench.shard.start (an ISO-8601 instant, e.g. "
            + "$(date -u -d '+2 min' +%FT%TZ)) and llmbench.shard.slot (longer than any level, e.g. 2m)");
  }

  @Test
  void anAdaptiveSweepCannotBeShardedAndTheErrorNamesTheMethod() {
    assertThat(BenchKit.run(AdaptiveTestCases.class, "llmbench.shard.count", "2", "llmbench.shard.start", Instant.now().toString(),
        "llmbench.shard.slot", "1m")).hasSingleFailure().failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[AdaptiveTestCases#sweep]: C=2 is adaptive (@Measurement(targetCiHalfWidth)): it stops when the whole level's "
            + "interval is narrow, which no shard can see alone; give sharded levels a duration (@Measurement(duration = "
            + "\"60s\")) or a request count");
  }

  @Test
  void aDurationBoundedLevelLongerThanItsSlotIsAConfigurationError() {
    assertThat(BenchKit.run(TimedTestCases.class, "llmbench.shard.start", Instant.now().toString(), "llmbench.shard.slot", "5s"))
        .hasSingleFailure().failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[TimedTestCases#sweep]: C=2 sends for 5.000 s with 1.000 s of grace, which does not fit llmbench.shard.slot "
            + "5.000 s; make the slot longer than that plus the warm-up");
  }

  @Test
  void aCapacitySearchCannotBeShardedAndTheErrorSaysWhy() {
    assertThat(BenchKit.run(CapacityTestCases.class, "llmbench.shard.count", "2", "llmbench.shard.start",
        Instant.now().toString(), "llmbench.shard.slot", "1m")).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[CapacityTestCases#capacity]: a @CapacitySearch picks each probe by whether the last met the SLO, which no "
            + "shard sees whole; run capacity searches unsharded (without llmbench.shard.count)");
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
