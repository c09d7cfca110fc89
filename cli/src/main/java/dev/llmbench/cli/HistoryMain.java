package dev.llmbench.cli;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.history.ChangePointSettings;
import dev.llmbench.history.FileHistoryStore;
import dev.llmbench.history.History;
import dev.llmbench.history.HistoryRead;
import dev.llmbench.history.HistoryStore;
import dev.llmbench.history.JdbcHistoryStore;
import dev.llmbench.history.Series;
import dev.llmbench.history.SeriesChange;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prints series from a history store and their change points: each run's commit, date and value, the change points
 * marked, then the findings. Exit 1 with {@code --fail-within N} when a change point lies in the newest N runs.
 */
@API(status = INTERNAL)
@Command(name = "llmbench-history", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Prints series of a benchmark history (a JSON-lines file or PostgreSQL) and their change points.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:printed", "1:a change point in the newest --fail-within runs", "2:the store could not be read"})
public final class HistoryMain implements Callable<Integer> {

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

  @Option(names = "--file", paramLabel = "FILE", description = "the JSON-lines history (default: ${DEFAULT-VALUE})")
  Path file = Path.of(".llmbench", "history.jsonl");

  @Option(names = "--jdbc", paramLabel = "URL", description = "read PostgreSQL instead, e.g. jdbc:postgresql://db/bench")
  String jdbc;

  @Option(names = "--user", description = "the database user")
  String user;

  @Option(names = "--password-env", paramLabel = "VAR", description = "the environment variable holding the password"
      + " (default: ${DEFAULT-VALUE})")
  String passwordVariable = "LLMBENCH_HISTORY_PASSWORD";

  @Option(names = "--figure", split = ",", description = "figures to print, e.g. output_throughput,ttft.p99"
      + " (default: output_throughput)")
  List<String> figures = List.of("output_throughput");

  @Option(names = "--level", split = ",", description = "level labels, e.g. C=32 (default: every level)")
  List<String> levels = List.of();

  @Option(names = "--branch", description = "only runs on this branch")
  String branch;

  @Option(names = "--last", description = "only the newest N runs")
  Integer last;

  @Option(names = "--max-p", description = "largest p-value of a change point (default: ${DEFAULT-VALUE})")
  double maxPValue = ChangePointSettings.DEFAULTS.maxPValue();

  @Option(names = "--window", description = "points the split step looks at at once (default: ${DEFAULT-VALUE})")
  int window = ChangePointSettings.DEFAULTS.window();

  @Option(names = "--min-magnitude", description = "least relative change, 0.05 for 5% (default: ${DEFAULT-VALUE})")
  double minMagnitude = ChangePointSettings.DEFAULTS.minMagnitude();

  @Option(names = "--fail-within", paramLabel = "N", description = "exit 1 when a change point lies in the newest N runs")
  Integer failWithin;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    HistoryStore store = jdbc != null ? new JdbcHistoryStore(jdbc, user, System.getenv(passwordVariable))
        : new FileHistoryStore(file);
    HistoryRead read;
    try {
      read = store.read();
    } catch (IOException e) {
      spec.commandLine().getErr().println("llmbench-history: " + e.getMessage());
      return 2;
    }
    read.skipped().forEach(s -> out.println("skipped " + s));
    History history = read.history();
    if (branch != null) history = history.onBranch(branch);
    if (last != null) history = history.lastRuns(last);
    ChangePointSettings settings = ChangePointSettings.DEFAULTS.withWindow(window).withMaxPValue(maxPValue)
        .withMinMagnitude(minMagnitude);
    Set<String> wanted = Set.copyOf(figures);
    List<Series> series = history.series(l -> levels.isEmpty() || levels.contains(l.level()), wanted::contains);
    out.printf(Locale.ROOT, "[llmbench] history at %s: %d runs, %d series; change points at p <= %s, window %d%n",
        store.describe(), history.runs(), series.size(), maxPValue, window);
    boolean failing = false;
    for (Series s : series) {
      List<SeriesChange> changes = s.changes(settings);
      Set<Integer> at = changes.stream().map(c -> c.point().index()).collect(Collectors.toSet());
      out.printf(Locale.ROOT, "%n%s  %s (%s), %d runs%n", s.level(), s.label(), s.unit(), s.size());
      for (int i = 0; i < s.size(); i++) {
        Series.Point p = s.points().get(i);
        out.printf(Locale.ROOT, "%s %4d  %s  %-8s %12s%n", at.contains(i) ? ">" : " ", i + 1,
            DAY.format(p.run().time()), p.run().shortCommit(), number(p.value()));
      }
      for (SeriesChange c : changes) {
        out.println("  " + c.finding());
        if (failWithin != null && c.runsSince() <= failWithin) failing = true;
      }
      if (changes.isEmpty()) out.println("  no change point");
    }
    out.flush();
    return failing ? 1 : 0;
  }

  /** As the findings write a value: one decimal from 100 up, two from 1, four significant digits below. */
  static String number(double value) {
    double a = Math.abs(value);
    if (a >= 100) return String.format(Locale.ROOT, "%.1f", value);
    if (a >= 1) return String.format(Locale.ROOT, "%.2f", value);
    return String.format(Locale.ROOT, "%.4g", value);
  }

  /**
   * Runs the command.
   *
   * @param args the command line; {@code --help} lists the options
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new HistoryMain()).execute(args));
  }
}
