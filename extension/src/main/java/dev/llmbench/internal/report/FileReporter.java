package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes each sweep into a folder of its own: every level's JSON and CSV as soon as it is measured (so a
 * later crash loses nothing), then the table, the analysis, the charts and an HTML page when it ends; and the run's
 * overview, {@code index.html} beside the folders, rewritten as each sweep ends ({@link RunSweeps}): it lists the run's
 * sweeps, never a folder left by an earlier run.
 */
@API(status = INTERNAL)
public final class FileReporter implements BenchListener {

  private final Path root;
  private final ReportOptions options;
  private final RunSweeps sweeps;
  /** Whether this reporter made its own {@link RunSweeps}, and so ends them when the run finishes. */
  private final boolean ownSweeps;

  public FileReporter(Path root) {
    this(root, ReportOptions.DEFAULT);
  }

  public FileReporter(Path root, ReportOptions options) {
    this(root, options, new RunSweeps(root), true);
  }

  /** @param sweeps the run's sweeps, kept by the run (the launcher session), which closes them */
  public FileReporter(Path root, ReportOptions options, RunSweeps sweeps) {
    this(root, options, sweeps, false);
  }

  private FileReporter(Path root, ReportOptions options, RunSweeps sweeps, boolean ownSweeps) {
    this.root = root;
    this.options = options;
    this.sweeps = sweeps;
    this.ownSweeps = ownSweeps;
  }

  /** A sweep's folder: unique per class and method, so same-named classes of different packages never collide. */
  static Path folder(Path root, SweepRun sweep) {
    return root.resolve(sweep.id());
  }

  @Override
  public void levelFinished(SweepRun sweep, MeasuredLevel level) {
    Path dir = folder(root, sweep);
    write(dir, fileName(level.label()) + ".json", LevelDocuments.json(sweep, level, options));
    write(dir, fileName(level.label()) + ".csv", LevelDocuments.csv(level));
    LevelDocuments.charts(level).forEach((name, svg) -> write(dir, fileName(level.label()) + "." + name + ".svg", svg));
    sweep.sections(level).forEach(f -> f.files().forEach(file -> write(dir, file.fileName(), file.body())));
  }

  @Override
  public void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
    SweepSummary summary = SweepSummary.of(sweep, levels);
    Path dir = folder(root, sweep);
    summary.charts().forEach((name, svg) -> write(dir, name + ".svg", svg));
    write(dir, "table.txt", summary.tableWithFindings());
    write(dir, "sweep.json", ResultJson.sweep(summary));
    write(dir, "index.html", HtmlSummary.sweep(summary));
    summary.sections().forEach(f -> f.files().forEach(file -> write(dir, file.fileName(), file.body())));
    sweeps.add(summary, sweep.id());
  }

  @Override
  public void runFinished() {
    if (ownSweeps) sweeps.close();
  }

  private static void write(Path dir, String name, String content) {
    write(dir, name, content.getBytes(StandardCharsets.UTF_8));
  }

  private static void write(Path dir, String name, byte[] content) {
    try {
      Files.createDirectories(dir);
      Files.write(dir.resolve(name), content);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + dir.resolve(name)
          + "; check that the folder is writable, or set llmbench.report.dir to one that is", e);
    }
  }

  /** The name (without extension) a level's files get in its sweep's folder; a merge finds them by it. */
  public static String fileName(String label) {
    return label.replaceAll("[^A-Za-z0-9=._-]+", "_");
  }
}
