package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Where runs are remembered: every run appends its levels, analysis reads them all back. Two implementations:
 * {@link FileHistoryStore}, a JSON-lines file in the project (the default; CI can cache or commit it), and
 * {@link JdbcHistoryStore}, PostgreSQL for a team. Both are safe with several runs appending at once.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface HistoryStore {

  /**
   * Appends one run's levels: all of them land, or (on an error) none, as far as the store can promise.
   *
   * @param levels the levels, usually of one run
   * @throws IOException when the store cannot be written; nothing the caller measured is lost by that
   */
  void append(List<LevelRecord> levels) throws IOException;

  /**
   * {@return every level stored, oldest run first, with what could not be read}
   *
   * @throws IOException when the store cannot be read at all
   */
  HistoryRead read() throws IOException;

  /** {@return where the store is, for messages: a path or a JDBC URL without credentials} */
  String describe();
}
