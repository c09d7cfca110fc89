package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.config.ProgressMode;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.LevelProgress;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.server.ServerStartup;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The lines a run prints: readiness progress, the endpoint once ready, where a running level stands, and each sweep's
 * table and analysis. A level's progress is one line redrawn in place ({@link ProgressMode#REDRAW}: a carriage return,
 * no newline, cleared before any other line) or a plain line each time ({@link ProgressMode#LINES}).
 */
@API(status = INTERNAL)
public final class ConsoleReporter implements BenchListener {

  private final Path reportRoot;
  private final ProgressMode progress;
  /** Characters of the progress line now on screen, 0 when none: what the next line must blank out. */
  private int drawn;
  /** The terminal's width when the environment says it ({@code COLUMNS}), else wide enough for any line. */
  private final int width = columns(System.getenv("COLUMNS"));

  static int columns(String text) {
    try {
      int c = text == null ? 0 : Integer.parseInt(text.strip());
      return c >= 20 ? c : Integer.MAX_VALUE;
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  /** @param reportRoot where {@link FileReporter} writes, so the table can say where the report is */
  public ConsoleReporter(Path reportRoot) {
    this(reportRoot, ProgressMode.LINES);
  }

  /** @param progress how a running level shows where it stands, already {@link ProgressMode#resolve resolved} */
  public ConsoleReporter(Path reportRoot, ProgressMode progress) {
    this.reportRoot = reportRoot;
    this.progress = progress;
  }

  /** Looked up on each line, not kept: tests and tools may redirect {@code System.out} for a while. */
  private static PrintStream out() {
    return System.out;
  }

  @Override
  public synchronized void readinessProgress(String url, Duration waited, String startup, String last) {
    clearProgress();
    out().printf("[llmbench] waiting for %s: %s elapsed, %slast: %s%n", url, Formats.duration(waited),
        startup.isEmpty() ? "" : startup + "; ", last);
  }

  @Override
  public synchronized void serverLaunched(String command, long pid, Path log) {
    clearProgress();
    out().printf("[llmbench] launched %s (pid %d); its log: %s%n", command, pid, log.toAbsolutePath());
  }

  @Override
  public synchronized void containerStarted(String container, Path log) {
    clearProgress();
    out().printf("[llmbench] started %s; its log: %s%n", container, log.toAbsolutePath());
  }

  @Override
  public synchronized void serverStopped(String command, String ending) {
    clearProgress();
    out().printf("[llmbench] stopped %s: %s%n", command, ending);
  }

  @Override
  public synchronized void endpointReady(EndpointInfo endpoint) {
    clearProgress();
    ServerStartup startup = endpoint.startup();
    String since = startup.readySinceLaunch().map(d -> " (" + Formats.duration(d) + " since launch)").orElse("");
    out().printf("[llmbench] %s ready after %s of waiting%s, model '%s'%s%n", endpoint.url(),
        Formats.duration(endpoint.timeToReady()), since, endpoint.model(),
        startup.summary().isEmpty() ? "" : "; " + startup.summary());
  }

  @Override
  public synchronized void levelProgress(SweepRun sweep, LevelProgress now) {
    String line = "[llmbench] " + now;
    switch (progress) {
      case REDRAW -> {
        // A line wider than the terminal would wrap, and the carriage return would then redraw only its last row.
        if (line.length() > width) line = line.substring(0, width - 1) + "…";
        // Back to the line's start and over it; spaces blank what a longer line before left.
        out().print("\r" + line + " ".repeat(Math.max(0, drawn - line.length())));
        out().flush();
        drawn = line.length();
      }
      case OFF -> { }
      default -> out().println(line);
    }
  }

  @Override
  public synchronized void levelFinished(SweepRun sweep, MeasuredLevel level) {
    clearProgress();
  }

  /** Blanks the redrawn progress line, if one is on screen, so the next line starts at the left on a clean row. */
  private void clearProgress() {
    if (drawn == 0) return;
    out().print("\r" + " ".repeat(drawn) + "\r");
    out().flush();
    drawn = 0;
  }

  @Override
  public synchronized void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
    clearProgress();
    SweepSummary summary = SweepSummary.of(sweep, levels);
    StringBuilder workloads = new StringBuilder();
    for (MeasuredLevel l : levels) {
      LevelWorkload.of(l).filter(LevelWorkload::isNotable)
          .ifPresent(w -> workloads.append(l.label()).append(" | workload: ").append(w.describe()).append('\n'));
    }
    out().println("\n[llmbench] " + sweep.title() + "\n" + summary.tableWithFindings() + workloads + "[llmbench] report: "
        + FileReporter.folder(reportRoot, sweep).resolve("index.html").toAbsolutePath() + "\n");
  }
}
