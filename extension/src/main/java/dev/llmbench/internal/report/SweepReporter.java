package dev.llmbench.internal.report;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ScalingAnalysis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes what a sweep measured: each level's JSON and CSV as soon as it is measured (so a later crash
 * loses nothing), then the table, the analysis, the charts and an HTML page when the sweep ends; and
 * the same into Allure when an Allure test is running.
 */
public final class SweepReporter {

  /** Where files go: {@code llmbench.report.dir}, else {@code target/llmbench}. */
  public static Path reportRoot() {
    return Path.of(System.getProperty("llmbench.report.dir", "target/llmbench"));
  }

  private final Path dir;
  private final String title;

  public SweepReporter(Path dir, String title) {
    this.dir = dir;
    this.title = title;
  }

  public Path dir() {
    return dir;
  }

  public void level(SweepLevelResult r) {
    String json = ResultJson.write(r);
    String csv = ResultCsv.write(r);
    write(fileName(r.label()) + ".json", json);
    write(fileName(r.label()) + ".csv", csv);
    AllureSupport.attach(r.label() + " summary", "text/html", "html", HtmlSummary.level(r));
    AllureSupport.attach(r.label() + " requests", "text/csv", "csv", csv);
    AllureSupport.attach(r.label() + " result", "application/json", "json", json);
  }

  /** Prints and writes the sweep's table, analysis, charts and page; returns the table. */
  public String sweep(List<SweepLevelResult> levels) {
    String table = ConsoleTable.render(levels);
    List<String> found = ScalingAnalysis.findings(levels);
    String findings = String.join("\n", found);
    System.out.println("\n[llmbench] " + title + "\n" + table + findings + "\n[llmbench] report: "
        + dir.resolve("index.html").toAbsolutePath() + "\n");
    Map<String, String> charts = SvgCharts.forSweep(title, levels);
    charts.forEach((name, svg) -> write(name + ".svg", svg));
    write("table.txt", table + "\n" + findings + "\n");
    write("index.html", HtmlSummary.sweep(title, levels, table, found, charts));
    AllureSupport.attach("sweep table", "text/plain", "txt", table + "\n" + findings + "\n");
    charts.forEach((name, svg) -> AllureSupport.attach("chart: " + name, "image/svg+xml", "svg", svg));
    return table;
  }

  private void write(String name, String content) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name), content);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + dir.resolve(name), e);
    }
  }

  static String fileName(String label) {
    return label.replaceAll("[^A-Za-z0-9=._-]+", "_");
  }
}
