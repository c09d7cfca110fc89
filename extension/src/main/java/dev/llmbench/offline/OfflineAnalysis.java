package dev.llmbench.offline;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.core.AnalysedSweep;
import dev.llmbench.internal.report.ResultCsv;
import dev.llmbench.internal.vllm.VllmResultFiles;
import dev.llmbench.server.DeploymentDescription;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * The analysis of what already exists, without running load: a CSV table, {@code vllm bench serve} result
 * files, or the folder an earlier LLMBench sweep wrote. Each path is a file or a folder (read to any depth);
 * every level found is read the same way a measured one is.
 */
@API(status = INTERNAL)
public final class OfflineAnalysis {

  private OfflineAnalysis() {}

  /**
   * The levels in {@code paths}, read and analysed.
   *
   * @param paths      files or folders of earlier results
   * @param deployment facts to read the levels with; when empty, those a run recorded, if any
   * @param title      what reports call the sweep; empty for the first path's name
   * @return the levels and what the analysis finds in them
   * @throws IllegalArgumentException naming the file and what it expected, when a path holds no level or cannot be read
   */
  public static SweepResult read(List<Path> paths, Optional<DeploymentDescription> deployment, Optional<String> title) {
    if (paths.isEmpty()) throw new IllegalArgumentException("give at least one file or folder to analyse");
    List<SweepLevelResult> levels = new ArrayList<>();
    for (Path p : paths) levels.addAll(levels(p, deployment));
    if (levels.isEmpty()) {
      throw new IllegalArgumentException(paths + " hold no level: expected a CSV table (" + CsvTable.EXAMPLE + "), "
          + "a printed table (" + TextTable.EXAMPLE + "), vllm bench serve --save-result JSON files, or the folder of an "
          + "LLMBench sweep (C=N.json)");
    }
    checkOneLevelPerLoad(levels);
    Optional<DeploymentDescription> facts = deployment.isPresent() ? deployment
        : levels.stream().map(SweepLevelResult::deploymentDescription).flatMap(Optional::stream).findFirst();
    return new AnalysedSweep(title.orElse(paths.get(0).toAbsolutePath().normalize().getFileName().toString()), levels, facts);
  }

  /**
   * The analysis of levels at hand.
   *
   * @param title      what reports call the sweep
   * @param levels     the levels, in the order they ran
   * @param deployment what is known of the deployment the levels ran on
   * @return the levels and what the analysis finds in them
   */
  public static SweepResult of(String title, List<? extends SweepLevelResult> levels, DeploymentDescription deployment) {
    if (levels.isEmpty()) throw new IllegalArgumentException("a sweep needs at least one level to analyse");
    return new AnalysedSweep(title, levels, deployment.isEmpty() ? Optional.empty() : Optional.of(deployment));
  }

  private static List<SweepLevelResult> levels(Path path, Optional<DeploymentDescription> deployment) {
    if (!Files.exists(path)) throw new IllegalArgumentException(path + " does not exist");
    if (Files.isDirectory(path)) {
      List<Path> files;
      try (Stream<Path> walk = Files.walk(path)) {
        files = walk.filter(Files::isRegularFile).filter(OfflineAnalysis::candidate).sorted().toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + path.toAbsolutePath(), e);
      }
      boolean runs = files.stream().anyMatch(f -> f.getFileName().toString().matches("run=\\d+\\.json"));
      List<SweepLevelResult> out = new ArrayList<>();
      for (Path f : files) {
        // vllm bench sweep writes each run once more into summary.json.
        if (runs && f.getFileName().toString().equals("summary.json")) continue;
        out.addAll(file(f, deployment, true));
      }
      return out;
    }
    return file(path, deployment, false);
  }

  private static boolean candidate(Path f) {
    String name = f.getFileName().toString();
    return name.endsWith(".csv") || name.endsWith(".json") && !name.endsWith(".pytorch.json") && !name.equals("sweep.json")
        && !name.endsWith("-result.json") && !name.endsWith("-container.json");
  }

  /** One file's levels; in a folder, files that are no level of a known kind are passed over. */
  private static List<SweepLevelResult> file(Path f, Optional<DeploymentDescription> deployment, boolean inFolder) {
    String name = f.getFileName().toString();
    if (name.endsWith(".csv")) return inFolder && requestRecords(f) ? List.of() : CsvTable.read(f, deployment);
    // A printed table only when named: in a folder, the table.txt a sweep writes beside its levels would read them twice.
    if (!inFolder && !name.endsWith(".json") && TextTable.isTable(f)) return TextTable.read(f, deployment);
    List<SweepLevelResult> out = new ArrayList<>();
    for (JsonNode node : VllmResultFiles.objects(f)) {
      if (RunFolder.isLevel(node)) out.add(RunFolder.level(node, deployment));
      else if (VllmResultFiles.isResult(node)) out.add(VllmLevels.level(VllmResultFiles.run(node, f), deployment));
      else if (!inFolder) {
        throw new IllegalArgumentException(f + " is neither a level LLMBench wrote nor a vllm bench serve result "
            + "(it has no \"duration\" and \"completed\")");
      }
    }
    return out;
  }

  /** A level's per-request CSV that LLMBench writes beside its JSON: the JSON is what is read. */
  private static boolean requestRecords(Path csv) {
    try (Stream<String> lines = Files.lines(csv)) {
      return lines.findFirst().map(h -> h.startsWith(ResultCsv.HEADER)).orElse(false);
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /**
   * Two results at one load would read as a level compared with itself; several runs of one level (vLLM's
   * {@code run=N}, labelled so) are kept, and the scaling reading takes the first.
   */
  private static void checkOneLevelPerLoad(List<SweepLevelResult> levels) {
    Map<String, String> seen = new HashMap<>();
    for (SweepLevelResult l : levels) {
      String key = l.load() + "|" + l.maxTokens() + "|" + l.inputTokens();
      String before = seen.putIfAbsent(key, l.prompts() + " " + l.label());
      if (before != null && !l.label().contains("run=")) {
        throw new IllegalArgumentException("two results for " + l.label() + " (" + before + " and " + l.prompts()
            + "): give one run per level");
      }
    }
  }
}
