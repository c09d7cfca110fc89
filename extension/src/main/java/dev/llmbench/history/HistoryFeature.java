package dev.llmbench.history;

import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A sweep's part of the history: when it ends, its levels are appended to the store (a failure is a loud warning,
 * never a failed run: the run's own reports are complete without it), and its section shows each chosen figure's
 * trend per level over the newest runs, with a finding for each change point among the most recent of them.
 */
final class HistoryFeature implements SweepFeature {

  private final HistoryStore store;
  private final RunIdentity run;
  private final List<String> figures;
  private final int runs;
  private final int recent;
  /** What {@link #ended} found: the sections are asked after it, and are functions of it. */
  private volatile Outcome outcome;

  /**
   * @param store   where the levels go and the trends come from
   * @param run     the JUnit run's identity, without the engine (each level's endpoint says it)
   * @param figures the figures charted and searched, by name
   * @param runs    how many of the newest runs the trends show
   * @param recent  a change point among this many newest runs is a finding
   */
  HistoryFeature(HistoryStore store, RunIdentity run, List<String> figures, int runs, int recent) {
    this.store = store;
    this.run = run;
    this.figures = List.copyOf(figures);
    this.runs = runs;
    this.recent = recent;
  }

  /**
   * What the sweep left in the history.
   *
   * @param recorded the levels appended; empty when the append failed
   * @param warnings what went wrong, each a sentence for the reports
   * @param history  this sweep's levels in the newest runs (this one included, appended or not)
   */
  record Outcome(int recorded, List<String> warnings, History history) {}

  @Override
  public String key() {
    return "history";
  }

  /** Appends the levels, then reads the sweep's series back for the trends. */
  @Override
  public void ended(SweepRun sweep, List<MeasuredLevel> levels) {
    List<LevelRecord> records = levels.stream().map(l -> record(sweep, l)).toList();
    List<String> warnings = new ArrayList<>();
    boolean appended = false;
    try {
      store.append(records);
      appended = true;
    } catch (IOException | RuntimeException e) {
      warnings.add("history: WARNING: this run's " + count(records.size()) + " NOT recorded: " + said(e, " could not be written")
          + " (the run's own reports are complete without it)");
    }
    Set<LevelIdentity> ids = new LinkedHashSet<>();
    records.forEach(r -> ids.add(r.level()));
    List<LevelRecord> read = new ArrayList<>();
    try {
      HistoryRead got = store.read();
      got.levels().stream().filter(l -> ids.contains(l.level())).forEach(read::add);
      if (!got.skipped().isEmpty()) {
        warnings.add("history: WARNING: " + got.skipped().size() + (got.skipped().size() == 1 ? " entry" : " entries")
            + " of " + store.describe() + " skipped, unreadable: " + got.skipped().get(0)
            + (got.skipped().size() > 1 ? " (and more)" : ""));
      }
    } catch (IOException | RuntimeException e) {
      warnings.add("history: WARNING: no trend drawn: " + said(e, " could not be read"));
    }
    // A store that took nothing still shows this run beside what it could read.
    if (!appended) read.addAll(records);
    outcome = new Outcome(appended ? records.size() : 0, List.copyOf(warnings), History.of(read).lastRuns(runs));
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    Outcome o = outcome;
    if (o == null) return Optional.empty();
    // The warnings lead the sweep's conclusions (under the console's table, atop the pages): a run the history lost.
    List<String> findings = new ArrayList<>(o.warnings());
    Map<String, String> charts = new LinkedHashMap<>();
    int runCount = o.history().runs();
    if (runCount >= 2) {
      for (String figure : figures) {
        List<Series> series = o.history().series(l -> true, figure::equals);
        if (series.stream().allMatch(s -> s.size() < 2)) continue;
        for (Series s : series) {
          for (SeriesChange c : s.changes(ChangePointSettings.DEFAULTS)) {
            if (c.runsSince() <= recent) findings.add("history: " + c.finding());
          }
        }
        charts.put("history-" + figure, TrendChart.of(series, ChangePointSettings.DEFAULTS));
      }
    }
    FeatureSection section = FeatureSection.titled("history").withFindings(findings)
        .withHtml(html(o, runCount, charts.isEmpty())).withCharts(charts);
    return Optional.of(section);
  }

  /** A line on the sweep's page: where the run went and how many runs the trends hold. */
  private String html(Outcome o, int runCount, boolean noChart) {
    String where = escape(store.describe());
    String said = o.recorded() > 0 ? "This run's " + count(o.recorded()) + " recorded in <code>" + where + "</code>"
        : "This run was <b>not</b> recorded in <code>" + where + "</code>";
    return "<h3>History</h3><p>" + said + "; " + runCount + (runCount == 1 ? " run" : " runs") + " of this sweep in the trends"
        + (noChart ? " (a trend needs two)" : ", each figure's chart under More charts") + ".</p>";
  }

  /**
   * What went wrong, naming the store once: the exception's message when it names it (a file store's
   * {@code path: Is a directory}, the database's {@code could not read the history at ...}), else after it.
   */
  private String said(Exception e, String failed) {
    String message = String.valueOf(e.getMessage());
    String describe = store.describe();
    // A spooled store describes its spool after its URL, in parentheses: the URL is where it lives.
    String where = describe.contains(" (") ? describe.substring(0, describe.indexOf(" (")) : describe;
    return message.contains(where) ? message : where + failed + ": " + message;
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String count(int levels) {
    return levels + (levels == 1 ? " level was" : " levels were");
  }

  /** The level as the history keeps it, under the run's identity with the level's engine and model. */
  LevelRecord record(SweepRun sweep, MeasuredLevel level) {
    EndpointInfo e = level.endpoint();
    String engine = e.embedded().map(p -> "embedded " + p).or(() -> e.startup().engine()).orElse(e.url());
    RunIdentity own = new RunIdentity(run.id(), run.time(), run.commit(), run.branch(), run.build(), engine,
        e.serverVersion().orElse(""), e.model(), run.host());
    return new LevelRecord(own, identity(sweep, level), StoredFigures.of(level));
  }

  /**
   * The level's identity: what it sent (lengths, prompts, load) and how it measured (stop rule, warm-up, API) as
   * fingerprints, so that a changed workload starts a new series. The engine, its version and the model are left
   * out: a change of them is what a series is kept to show.
   */
  static LevelIdentity identity(SweepRun sweep, MeasuredLevel level) {
    LevelPlan plan = level.plan();
    String workload = LevelIdentity.fingerprint(String.valueOf(plan.maxTokens()), String.valueOf(plan.inputTokens()),
        String.valueOf(plan.workload().ignoreEos()), String.valueOf(plan.workload().temperature()), level.prompts(),
        String.valueOf(plan.load()));
    String settings = LevelIdentity.fingerprint(String.valueOf(plan.stop()), String.valueOf(plan.warmupRequests()),
        String.valueOf(plan.warmupMaxTokens()), String.valueOf(level.endpoint().api()));
    return new LevelIdentity(sweep.className(), sweep.method(), level.label(), level.endpoint().deployment().orElse(""),
        workload, settings);
  }
}
