package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What a store gave back: its levels, and what it skipped. A corrupt or half-written line costs that line only.
 *
 * @param levels  the levels read, oldest run first
 * @param skipped one message per entry skipped: {@code history.jsonl line 17: not JSON (Unexpected end-of-input)}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record HistoryRead(List<LevelRecord> levels, List<String> skipped) {

  /**
   * Copies both lists.
   *
   * @param levels  the levels read
   * @param skipped what was skipped
   */
  public HistoryRead {
    levels = List.copyOf(levels);
    skipped = List.copyOf(skipped);
  }

  /** {@return the levels as a history to analyse} */
  public History history() {
    return History.of(levels);
  }
}
