package dev.llmbench.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.internal.config.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ShardTests {

  static Shard shard(Map<String, String> configuration, Map<String, String> environment) {
    return Shard.from(new Settings(k -> Optional.ofNullable(configuration.get(k)), environment), environment);
  }

  static final Map<String, String> SCHEDULE = Map.of("llmbench.shard.count", "3", "llmbench.shard.start",
      "2026-12-01T10:00:00Z", "llmbench.shard.slot", "90s");

  @Test
  void withoutSettingsARunIsOneShardWithNoSchedule() {
    assertThat(shard(Map.of(), Map.of())).isEqualTo(Shard.SINGLE);
  }

  @Test
  void aKubernetesIndexedJobGivesTheIndexThroughJobCompletionIndex() {
    Shard s = shard(SCHEDULE, Map.of("JOB_COMPLETION_INDEX", "2"));
    assertThat(s.index()).isEqualTo(2);
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.slotStart(0)).contains(Instant.parse("2026-12-01T10:00:00Z"));
    assertThat(s.slotStart(2)).contains(Instant.parse("2026-12-01T10:03:00Z"));
  }

  @Test
  void theSettingWinsOverJobCompletionIndex() {
    Map<String, String> config = new HashMap<>(SCHEDULE);
    config.put("llmbench.shard.index", "1");
    assertThat(shard(config, Map.of("JOB_COMPLETION_INDEX", "2")).index()).isEqualTo(1);
    assertThat(shard(SCHEDULE, Map.of("LLMBENCH_SHARD_INDEX", "0", "JOB_COMPLETION_INDEX", "2")).index()).isZero();
  }

  @Test
  void badShardSettingsNameTheKeyAndTheFix() {
    assertThatThrownBy(() -> shard(SCHEDULE, Map.of("JOB_COMPLETION_INDEX", "3")))
        .hasMessage("llmbench.shard.index 3 is outside 0 to 2 (llmbench.shard.count is 3)");
    assertThatThrownBy(() -> shard(SCHEDULE, Map.of("JOB_COMPLETION_INDEX", "x")))
        .hasMessageContaining("(from environment variable JOB_COMPLETION_INDEX) is not usable");
    assertThatThrownBy(() -> shard(Map.of("llmbench.shard.count", "2"), Map.of()))
        .hasMessageContaining("give every shard the same llmbench.shard.start");
    assertThatThrownBy(() -> shard(Map.of("llmbench.shard.start", "2026-12-01T10:00:00Z"), Map.of()))
        .hasMessageContaining("llmbench.shard.start and llmbench.shard.slot go together");
    assertThatThrownBy(() -> shard(Map.of("llmbench.shard.start", "10:00"), Map.of()))
        .hasMessageContaining("llmbench.shard.start '10:00' (from configuration parameter llmbench.shard.start) is not usable")
        .hasMessageContaining("write e.g. 2026-12-01T10:00:00Z");
  }

  @Test
  void oneScheduledShardIsAllowed() {
    Shard s = shard(Map.of("llmbench.shard.start", "2026-12-01T10:00:00Z", "llmbench.shard.slot", "1m"), Map.of());
    assertThat(s.isSharded()).isFalse();
    assertThat(s.isScheduled()).isTrue();
    assertThat(s.slot()).contains(Duration.ofMinutes(1));
  }
}
