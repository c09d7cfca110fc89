package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.ServerStartup;
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
  public void readinessProgress(String url, Duration waited, String startup, String last) {
    out().printf("[llmbench] waiting for %s: %s elapsed, %slast: %s%n", url, Formats.duration(waited),
        startup.isEmpty() ? "" : startup + "; ", last);
  }

  @Override
  public void serverLaunched(String command, long pid, Path log) {
    out().printf("[llmbench] launched %s (pid %d); its log: %s%n", command, pid, log.toAbsolutePath());
  }

  @Override
  public void containerStarted(String container, Path log) {
    out().printf("[llmbench] started %s; its log: %s%n", container, log.toAbsolutePath());
  }

  @Override
  public void serverStopped(String command, String ending) {
    out().printf("[llmbench] stopped %s: %s%n", command, ending);
  }

  @Override
  public void endpointReady(EndpointInfo endpoint) {
    ServerStartup startup = endpoint.startup();
    String since = startup.readySinceLaunch().map(d -> " (" + Formats.duration(d) + " since launch)").orElse("");
    out().printf("[llmbench] %s ready after %s of waiting%s, model '%s'%s%n", endpoint.url(),
        Formats.duration(endpoint.timeToReady()), since, endpoint.model(),
        startup.summary().isEmpty() ? "" : "; " + startup.summary());
  }

  @Override
  public void levelProgress(SweepRun sweep, LevelProgress progress) {
    out().println("[llmbench] " + progress);
  }

  @Override
  public void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
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
