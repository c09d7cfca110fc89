package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a feature records beside each measured level, on its own threads (the GPUs' telemetry): started once the level
 * is warmed up and a shard has waited for its slot, just before the first measured request, and stopped when the
 * level's requests have ended. The level carries what it read ({@link LevelExtras#reading}); the runner names no
 * recorder's type.
 */
@API(status = INTERNAL)
public interface LevelRecorder {

  /** Starts recording the level. */
  Recording start();

  /** A recording under way. */
  interface Recording {
    /**
     * Stops it.
     *
     * @param outputTokens the level's output tokens, for figures per token (joules per token)
     */
    Recorded stop(long outputTokens);
  }

  /**
   * What a recording read of the level.
   *
   * @param reading what the level carries, found by its type; empty when nothing could be read
   * @param notes   the level's warnings from it (an exporter that could not be read)
   */
  record Recorded(Optional<Object> reading, List<String> notes) {
    public Recorded {
      notes = List.copyOf(notes);
    }
  }
}
