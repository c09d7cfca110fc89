package dev.llmbench.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ShareTests {

  static LevelPlan closed(int c, StopRule stop, int warmup) {
    return new LevelPlan("C=" + c, new LoadShape.ClosedLoop(c), stop,
        new WorkloadPlan(16, 0, true, null, PromptSource.builtIn(7)), warmup, 42);
  }

  static LevelPlan open(double rate, OptionalInt cap, StopRule stop) {
    return new LevelPlan("rate=" + rate + "/s", new LoadShape.OpenLoop(Rate.requestsPerSecond(rate), 1, cap), stop,
        new WorkloadPlan(16, 64, true, null, PromptSource.synthetic(64, 7)), 2, 42);
  }

  static List<Optional<LevelPlan>> shares(LevelPlan whole, int count) {
    List<Optional<LevelPlan>> shares = new ArrayList<>();
    for (int i = 0; i < count; i++) shares.add(Share.of(whole, i, count).plan());
    return shares;
  }

  @Test
  void workersAreDealtOutWithTheRemainderToTheFirstShardsAndRequestsFollowThem() {
    List<Optional<LevelPlan>> s = shares(closed(10, new StopRule.Count(25), 10), 4);
    assertThat(s).allMatch(Optional::isPresent);
    assertThat(s.stream().map(p -> p.get().concurrency()).toList()).containsExactly(3, 3, 2, 2);
    // 2.5 requests per worker: 7.5, 7.5, 5, 5, rounded on the running total so that they add up to 25.
    assertThat(s.stream().map(p -> ((StopRule.Count) p.get().stop()).requests()).toList()).containsExactly(8, 7, 5, 5);
    assertThat(s.stream().map(p -> p.get().warmupRequests()).toList()).containsExactly(3, 3, 2, 2);
    assertThat(s.stream().map(p -> p.get().label()).distinct().toList()).containsExactly("C=10");
  }

  @Test
  void oneShardIsTheWholeLevel() {
    LevelPlan whole = closed(8, new StopRule.Count(20), 8);
    assertThat(Share.of(whole, 0, 1).plan()).containsSame(whole);
  }

  @Test
  void aShardWithNoWorkerSkipsTheLevelAndSaysWhy() {
    Share second = Share.of(closed(1, new StopRule.Count(10), 1), 1, 2);
    assertThat(second.plan()).isEmpty();
    assertThat(second.skipReason()).isEqualTo("C=1: 1 worker for 2 shards leaves shard 1 none; it skips the level and keeps "
        + "the schedule");
    assertThat(Share.of(closed(4, new StopRule.Count(1), 4), 1, 2).plan()).as("1 request, 2 shards").isEmpty();
  }

  @Test
  void theShardsOfACountSendExactlyTheRequestsOfTheWholeLevel() {
    LevelPlan whole = closed(3, new StopRule.Count(10), 3);
    List<String> sharded = new ArrayList<>();
    for (Optional<LevelPlan> p : shares(whole, 2)) {
      int n = ((StopRule.Count) p.orElseThrow().stop()).requests();
      for (int i = 0; i < n; i++) sharded.add(text(p.get().workload().prompts().request(i, 16, true, null)) + "#" + p.get().workload().prompts().request(i, 16, true, null).seed());
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 10; i++) expected.add(text(whole.workload().prompts().request(i, 16, true, null)) + "#" + whole.workload().prompts().request(i, 16, true, null).seed());
    assertThat(sharded).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void durationBoundedShardsSendDisjointInterleavedRequestsForTheSameTime() {
    StopRule.Timed timed = new StopRule.Timed(Duration.ofSeconds(30), Duration.ofSeconds(5));
    List<Optional<LevelPlan>> s = shares(closed(4, timed, 4), 2);
    assertThat(s).allMatch(p -> p.orElseThrow().stop().equals(timed));
    List<Long> seeds = new ArrayList<>();
    for (Optional<LevelPlan> p : s) {
      for (int i = 0; i < 5; i++) seeds.add(p.orElseThrow().workload().prompts().request(i, 16, true, null).seed());
    }
    assertThat(seeds).doesNotHaveDuplicates(); // request seeds are 7 + index: shard 0 even, shard 1 odd indices
    assertThat(seeds.subList(0, 5)).containsExactly(7L, 9L, 11L, 13L, 15L);
  }

  @Test
  void anOpenLoopSplitsItsRateCapAndRequestsEvenlyWithArrivalsOfItsOwn() {
    List<Optional<LevelPlan>> s = shares(open(10, OptionalInt.of(5), new StopRule.Count(21)), 2);
    List<LoadShape.OpenLoop> loads = s.stream().map(p -> (LoadShape.OpenLoop) p.orElseThrow().load()).toList();
    assertThat(loads).extracting(l -> l.rate().perSecond()).containsExactly(5.0, 5.0);
    assertThat(loads).extracting(l -> l.maxConcurrency().getAsInt()).containsExactly(3, 2);
    assertThat(s.stream().map(p -> ((StopRule.Count) p.get().stop()).requests()).toList()).containsExactly(11, 10);
    assertThat(s.get(0).get().seed()).as("shard 0 keeps the level's seed").isEqualTo(42);
    assertThat(s.get(1).get().seed()).as("other shards draw arrivals of their own").isNotEqualTo(42);
  }

  @Test
  void anOpenLoopCappedBelowTheShardCountUsesOnlyThatManyShards() {
    List<Optional<LevelPlan>> s = shares(open(9, OptionalInt.of(2), new StopRule.Count(10)), 3);
    assertThat(s.get(2)).isEmpty();
    assertThat(((LoadShape.OpenLoop) s.get(0).orElseThrow().load()).rate().perSecond()).isEqualTo(4.5);
    assertThat(Share.of(open(9, OptionalInt.of(2), new StopRule.Count(10)), 2, 3).skipReason())
        .contains("at most 2 in flight leaves shard 2 of 3 no share of the cap");
  }

  @Test
  void anAdaptiveLevelCannotBeShardedAndTheMessageSaysWhatToUse() {
    LevelPlan adaptive = closed(4, new StopRule.Adaptive(0.05, 10, 100, Duration.ofMinutes(5)), 4);
    assertThatThrownBy(() -> Share.of(adaptive, 0, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("C=4 is adaptive").hasMessageContaining("@Measurement(duration = \"60s\")");
    assertThat(Share.of(adaptive, 0, 1).plan()).as("unsharded, it runs as ever").isPresent();
  }

  private static String text(CompletionRequest r) {
    return r.messages().toString();
  }
}
