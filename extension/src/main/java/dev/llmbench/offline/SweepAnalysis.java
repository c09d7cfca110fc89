package dev.llmbench.offline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.server.DeploymentDescription;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The analysis of a sweep that already ran, without running load: from a CSV table, from
 * {@code vllm bench serve --save-result} JSON files (request by request with {@code --save-detailed}), or
 * from the folder an earlier LLMBench sweep wrote; or from levels at hand. The same readings and findings
 * a live sweep gets (docs/findings.md), as a {@link SweepResult} to assert on or print.
 *
 * <pre>{@code
 * SweepResult sweep = SweepAnalysis.read(Path.of("results/"));
 * assertThat(sweep).hasNoThroughputDrop();
 * sweep.findings().forEach(f -> System.out.println(f.text()));
 * }</pre>
 *
 * <p>The same from a shell: {@code java -cp ... dev.llmbench.offline.AnalyseMain results/ --tp 8 --interconnect pcie}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SweepAnalysis {

  private SweepAnalysis() {}

  /**
   * Reads every level in {@code paths} (files, or folders to any depth): {@code .csv} tables, vLLM result
   * JSON, LLMBench level JSON.
   *
   * @throws IllegalArgumentException naming the file and what was expected, when one cannot be read
   * @param paths files or folders of earlier results
   * @return the levels read and what the analysis finds in them
   */
  public static SweepResult read(Path... paths) {
    return OfflineAnalysis.read(List.of(paths), Optional.empty(), Optional.empty());
  }

  /**
   * As {@link #read(Path...)}, reading the levels with what is known of the deployment.
   *
   * @param deployment what is known of the deployment the levels ran on
   * @param paths files or folders of earlier results
   * @return the levels read and what the analysis finds in them
   */
  public static SweepResult read(DeploymentDescription deployment, Path... paths) {
    return OfflineAnalysis.read(List.of(paths), Optional.of(deployment), Optional.empty());
  }

  /**
   * The analysis of levels at hand, e.g. collected from several sweeps or runs.
   *
   * @param title what reports call the sweep
   * @param levels the levels, in the order they ran
   * @param deployment what is known of the deployment the levels ran on
   * @return the levels and what the analysis finds in them
   */
  public static SweepResult of(String title, List<? extends SweepLevelResult> levels, DeploymentDescription deployment) {
    return OfflineAnalysis.of(title, levels, deployment);
  }
}
