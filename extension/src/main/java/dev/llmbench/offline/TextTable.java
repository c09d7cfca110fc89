package dev.llmbench.offline;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.server.DeploymentDescription;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sweep table as printed, one line per level, as LLMBench's console (and many sweep scripts) print it:
 * {@code C= 1 |  4/ 4 ok (0 err) | wall= 33.4s |   61.3 tok/s | lat avg= 8.36 p50= 8.36 p99= 8.36 | ttft avg= 0.03 p99= 0.06},
 * latencies in seconds, {@code -} for a cell not given, a {@code *} after a percentile ignored. Other lines
 * (headings, footnotes, findings) are passed over. Each line is read as a CSV row with those columns.
 */
final class TextTable {

  static final String EXAMPLE = "C= 1 |  4/ 4 ok (0 err) | wall= 33.4s |   61.3 tok/s | lat avg= 8.36 p50= 8.36 p99= 8.36";

  private static final Pattern ROW = Pattern.compile("^\\s*(?:C=\\s*(\\d+)|rate=\\s*([\\d.]+)/s)\\s*\\|\\s*(\\d+)\\s*/\\s*(\\d+)"
      + "\\s+ok\\s*\\((\\d+)\\s+err\\)\\s*\\|\\s*wall=\\s*([\\d.]+)\\s*s\\s*\\|\\s*([\\d.]+)\\s+tok/s(.*)$");
  private static final Pattern CELL = Pattern.compile("(avg|mean|p50|median|p\\d+(?:\\.\\d+)?)=\\s*(-|[\\d.]+)\\*?");

  private TextTable() {}

  /** Whether the file holds at least one line of a printed table. */
  static boolean isTable(Path file) {
    try {
      return Files.readAllLines(file).stream().anyMatch(l -> ROW.matcher(l).matches());
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  static List<SweepLevelResult> read(Path file, Optional<DeploymentDescription> deployment) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException | UncheckedIOException e) {
      throw new IllegalArgumentException(file + " is not readable: " + e.getMessage(), e);
    }
    List<SweepLevelResult> levels = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = ROW.matcher(lines.get(i));
      if (!m.matches()) continue;
      Map<String, String> row = new LinkedHashMap<>();
      if (m.group(1) != null) row.put("concurrency", m.group(1));
      else row.put("rate", m.group(2));
      row.put("ok", m.group(3));
      row.put("requests", m.group(4));
      row.put("errors", m.group(5));
      row.put("wall", m.group(6));
      row.put("tok_s", m.group(7));
      for (String part : m.group(8).split("\\|")) {
        String cell = part.strip();
        String metric = cell.startsWith("lat ") ? "lat" : cell.startsWith("ttft ") ? "ttft" : null;
        if (metric == null) continue;
        Matcher c = CELL.matcher(cell);
        while (c.find()) {
          if (!c.group(2).equals("-")) row.put(metric + "_" + c.group(1).toLowerCase(Locale.ROOT), c.group(2));
        }
      }
      try {
        levels.add(CsvTable.level(row, file, deployment));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    if (levels.isEmpty()) throw new IllegalArgumentException(file + " has no line of a table like " + EXAMPLE);
    return levels;
  }
}
