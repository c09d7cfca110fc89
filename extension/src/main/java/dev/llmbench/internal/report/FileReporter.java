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
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes each sweep into a folder of its own: every level's JSON and CSV as soon as it is measured (so a
 * later crash loses nothing), then the table, the analysis, the charts and an HTML page when it ends; and the run's
 * overview, {@code index.html} beside the folders, rewritten as each sweep ends. It lives as long as the run (the
 * root context's store holds it), so the overview lists this run's sweeps, never a folder left by an earlier one.
 */
@API(status = INTERNAL)
public final class FileReporter implements BenchListener {

  private final Path root;
  private final ReportOptions options;
  private final List<RunOverview.Row> sweeps = new ArrayList<>();

  public FileReporter(Path root) {
    this(root, ReportOptions.DEFAULT);
  }

  public FileReporter(Path root, ReportOptions options) {
    this.root = root;
    this.options = options;
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
    String overview;
    synchronized (sweeps) {
      sweeps.add(RunOverview.Row.of(summary, sweep.id()));
      overview = RunOverview.html(sweeps);
      write(root, OVERVIEW, overview);
    }
  }

  /** The run's overview page, beside the sweeps' folders. */
  static final String OVERVIEW = "index.html";

  /** Where the overview of a run reporting into {@code root} is. */
  static Path overview(Path root) {
    return root.resolve(OVERVIEW);
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
