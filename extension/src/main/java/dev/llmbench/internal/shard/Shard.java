package dev.llmbench.internal.shard;

import static dev.llmbench.internal.config.SettingKeys.SHARD_COUNT;
import static dev.llmbench.internal.config.SettingKeys.SHARD_INDEX;
import static dev.llmbench.internal.config.SettingKeys.SHARD_SLOT;
import static dev.llmbench.internal.config.SettingKeys.SHARD_START;
import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Which part of a sharded run this JVM is, and the schedule every shard keeps: level {@code k} of the run is
 * measured from {@code start + k x slot} on every shard (each warms up first), so that shards on different
 * machines load the server together. A run of one shard with no schedule is the ordinary run.
 *
 * @param index 0 to {@code count - 1}
 * @param count how many shards run the suite together
 * @param start when every shard starts its first level; empty for no schedule
 * @param slot  how long each level may take, warm-up included; present exactly when {@code start} is
 */
@API(status = INTERNAL)
public record Shard(int index, int count, Optional<Instant> start, Optional<Duration> slot) {

  /** The environment variable a Kubernetes Indexed Job sets in each pod: its completion index. */
  public static final String JOB_COMPLETION_INDEX = "JOB_COMPLETION_INDEX";

  public static final Shard SINGLE = new Shard(0, 1, Optional.empty(), Optional.empty());

  public Shard {
    if (count < 1) throw new IllegalArgumentException("a run has at least 1 shard, was " + count);
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("llmbench.shard.index " + index + " is outside 0 to " + (count - 1)
          + " (llmbench.shard.count is " + count + ")");
    }
    if (start.isPresent() != slot.isPresent()) {
      throw new IllegalArgumentException("llmbench.shard.start and llmbench.shard.slot go together: level k is measured "
          + "from start + k x slot; set both, e.g. -Dllmbench.shard.start=2026-12-01T10:00:00Z -Dllmbench.shard.slot=2m");
    }
    if (count > 1 && start.isEmpty()) {
      throw new IllegalArgumentException("llmbench.shard.count is " + count + ": the shards must share a schedule so that "
          + "their levels overlap; give every shard the same llmbench.shard.start (an ISO-8601 instant, e.g. "
          + "$(date -u -d '+2 min' +%FT%TZ)) and llmbench.shard.slot (longer than any level, e.g. 2m)");
    }
  }

  /** The settings' shard, the index falling back on {@value #JOB_COMPLETION_INDEX} when no setting gives it. */
  public static Shard from(Settings settings, Map<String, String> environment) {
    int count = settings.get(SHARD_COUNT).value();
    Settings.Resolved<Integer> index = settings.get(SHARD_INDEX);
    int i = index.optional().orElseGet(() -> jobCompletionIndex(environment));
    return new Shard(i, count, settings.get(SHARD_START).optional(), settings.get(SHARD_SLOT).optional());
  }

  private static int jobCompletionIndex(Map<String, String> environment) {
    String text = environment.get(JOB_COMPLETION_INDEX);
    if (text == null || text.isBlank()) return 0;
    try {
      int i = Integer.parseInt(text.strip());
      if (i >= 0) return i;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("llmbench.shard.index '" + text + "' (from environment variable "
        + JOB_COMPLETION_INDEX + ") is not usable: it must be 0 or a positive whole number");
  }

  public boolean isSharded() {
    return count > 1;
  }

  public boolean isScheduled() {
    return start.isPresent();
  }

  /** When level {@code k} (0-based, in run order) starts; empty without a schedule. */
  public Optional<Instant> slotStart(int k) {
    return start.map(s -> s.plus(slot.orElseThrow().multipliedBy(k)));
  }

  @Override
  public String toString() {
    return "shard " + index + " of " + count;
  }
}
