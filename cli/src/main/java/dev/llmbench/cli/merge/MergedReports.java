package dev.llmbench.cli.merge;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.report.ConsoleReporter;
import dev.llmbench.internal.report.FileReporter;
import dev.llmbench.internal.shard.LevelFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/** The reports of merged sweeps, through the same listeners a run reports to. */
@API(status = INTERNAL)
public final class MergedReports {

  private MergedReports() {}

  /**
   * Writes the merged sweeps as a run writes its own: each level's JSON and CSV, then each sweep's table,
   * analysis, charts and HTML page, under {@code reportDir}; the tables are printed too.
   */
  public static void write(List<ShardMerge.MergedSweep> sweeps, Path reportDir) {
    BenchListener listener = Listeners.broadcast(List.of(new ConsoleReporter(reportDir), new FileReporter(reportDir)));
    for (ShardMerge.MergedSweep s : sweeps) {
      SweepRun run = new SweepRun(s.className(), s.method(), listener);
      // What the levels alone tell, as the run's own sweep told it: each feature's Feature.merged.
      Features.rebuild(run, s.levels());
      s.levels().forEach(run::measured);
      run.finish();
      for (MeasuredLevel level : s.levels()) {
        Map<Metric, Histogram> histograms = s.fromHistograms().getOrDefault(level.label(), Map.of());
        if (histograms.isEmpty()) continue;
        LevelFile.useHistograms(reportDir.resolve(s.id()).resolve(FileReporter.fileName(level.label()) + ".json"), histograms,
            level.percentiles());
      }
    }
  }
}
