package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A whole sweep: its levels and what the analysis read across them (docs/findings.md). A method annotated
 * {@link AfterSweep} receives it; {@code SweepAnalysis} builds one from files an earlier run, a table or
 * {@code vllm bench serve} left behind.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface SweepResult {

  /** {@return what reports call the sweep, e.g. {@code EmbeddedDeploymentBenchmarkTest.throughput}} */
  String title();

  /** {@return every level, in the order they ran} */
  List<SweepLevelResult> levels();

  /** {@return every finding, each workload's readings first, then each level's own} */
  List<Finding> findings();

  /**
   * {@return the findings of one kind}
   *
   * @param kind the kind
   */
  default List<Finding> findings(FindingKind kind) {
    return findings().stream().filter(f -> f.kind() == kind).toList();
  }

  /** {@return what the suite said about its deployment, when it said anything} */
  Optional<DeploymentDescription> deploymentDescription();

  /**
   * {@return throughput at {@code concurrency} over {@code concurrency} times the per-request throughput of the
   * lowest closed-loop level of the same workload (the first, when several were crossed); empty when no
   * closed-loop level ran at that concurrency}
   *
   * @param concurrency a level's concurrency
   */
  Optional<Double> scalingEfficiency(int concurrency);
}
