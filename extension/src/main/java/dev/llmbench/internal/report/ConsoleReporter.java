package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.LevelProgress;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/** The lines a run prints: readiness progress, the endpoint once ready, and each sweep's table and analysis. */
@API(status = INTERNAL)
public final class ConsoleReporter implements BenchListener {

  private final Path reportRoot;

  /** @param reportRoot where {@link FileReporter} writes, so the table can say where the report is */
  public ConsoleReporter(Path reportRoot) {
    this.reportRoot = reportRoot;
  }

  /** Looked up on each line, not kept: tests and tools may redirect {@code System.out} for a while. */
  private static PrintStream out() {
    return System.out;
  }

  @Override
  public void readinessProgress(String url, Duration elapsed, String last) {
    out().printf("[llmbench] waiting for %s: %s elapsed, last: %s%n", url, Formats.duration(elapsed), last);
  }

  @Override
  public void endpointReady(EndpointInfo endpoint) {
    out().printf("[llmbench] %s ready after %s, model '%s'%n", endpoint.url(), Formats.duration(endpoint.timeToReady()),
        endpoint.model());
  }

  @Override
  public void levelProgress(SweepRun sweep, LevelProgress progress) {
    out().println("[llmbench] " + progress);
  }

  @Override
  public void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
    SweepSummary summary = SweepSummary.of(sweep, levels);
    out().println("\n[llmbench] " + sweep.title() + "\n" + summary.tableWithFindings() + "[llmbench] report: "
        + FileReporter.folder(reportRoot, sweep).resolve("index.html").toAbsolutePath() + "\n");
  }
}
