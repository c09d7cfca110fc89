package dev.llmbench.history;

import dev.llmbench.internal.config.Setting;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The history's own settings, declared beside it (the registry lists them: {@link HistoryRegistration}). */
final class HistoryKeys {

  private HistoryKeys() {}

  static final Setting<Optional<Path>> HISTORY_FILE = new Setting<>("llmbench.history.file", ".llmbench/history.jsonl", null,
      "the JSON-lines file every sweep appends its levels to (relative to the working directory: the module's folder "
          + "under Maven), which CI can cache or commit; `off` records nothing and draws no trend",
      HistoryKeys::file);
  static final Setting<String> HISTORY_JDBC_URL = new Setting<>("llmbench.history.jdbc-url", "", "none",
      "PostgreSQL to keep the history in instead of the file, e.g. `jdbc:postgresql://db:5432/bench` (the driver "
          + "`org.postgresql:postgresql` on the test classpath); levels it does not take wait beside the file, in "
          + "`history-pending.jsonl`, for the next run to send", HistoryKeys::jdbcUrl);
  static final Setting<String> HISTORY_JDBC_USER = new Setting<>("llmbench.history.jdbc-user", "", "none",
      "the database user", text -> text);
  static final Setting<String> HISTORY_JDBC_PASSWORD_ENV = new Setting<>("llmbench.history.jdbc-password-env",
      "LLMBENCH_HISTORY_PASSWORD", null, "environment variable holding the database user's password (never printed)",
      text -> text);
  static final Setting<Integer> HISTORY_RUNS = new Setting<>("llmbench.history.runs", "30", null,
      "the newest runs each trend chart shows and change points are searched in", HistoryKeys::atLeastTwo);
  static final Setting<Integer> HISTORY_RECENT = new Setting<>("llmbench.history.recent", "5", null,
      "a change point among the newest this many runs (this one included) is a finding of the sweep",
      HistoryKeys::positive);
  static final Setting<List<String>> HISTORY_FIGURES = new Setting<>("llmbench.history.figures",
      "output_throughput,ttft.p50,ttft.p99", null,
      "figures charted and searched for change points, comma-separated, as the history names them (`tpot.p90`, "
          + "`request_goodput`: [history.md](history.md#what-is-stored))", HistoryKeys::figures);

  /** In the order of the settings table. */
  static final List<Setting<?>> ALL = List.of(HISTORY_FILE, HISTORY_JDBC_URL, HISTORY_JDBC_USER, HISTORY_JDBC_PASSWORD_ENV,
      HISTORY_RUNS, HISTORY_RECENT, HISTORY_FIGURES);

  static Optional<Path> file(String text) {
    return text.equalsIgnoreCase("off") ? Optional.empty() : Optional.of(Path.of(text));
  }

  static String jdbcUrl(String text) {
    if (!text.startsWith("jdbc:")) throw new IllegalArgumentException("write a JDBC URL such as jdbc:postgresql://db:5432/bench");
    return text;
  }

  static Integer atLeastTwo(String text) {
    int n = whole(text);
    if (n < 2) throw new IllegalArgumentException("a trend needs at least 2 runs");
    return n;
  }

  static Integer positive(String text) {
    int n = whole(text);
    if (n < 1) throw new IllegalArgumentException("it must be a positive whole number");
    return n;
  }

  private static int whole(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("it is not a whole number");
    }
  }

  static List<String> figures(String text) {
    List<String> names = Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).distinct().toList();
    if (names.isEmpty()) throw new IllegalArgumentException("it lists no figure; write e.g. output_throughput,ttft.p99");
    return names;
  }
}
