package dev.llmbench.cli;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.offline.OfflineAnalysis;
import dev.llmbench.server.DeploymentFacts;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.analysis.Derived;
import dev.llmbench.internal.report.ConsoleTable;
import dev.llmbench.internal.report.ResultJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Reads what already exists (a CSV table, vllm bench serve result files, an LLMBench sweep's folder) and
 * prints the table and the analysis, each finding with its evidence, causes and what to try.
 */
@API(status = INTERNAL)
@Command(name = "llmbench-analyse", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Analyses a sweep that already ran: a CSV table, vllm bench serve --save-result JSON files "
        + "(with --save-detailed, request by request), or the folder an LLMBench sweep wrote.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:analysed", "1:a finding of a kind given to --fail-on", "2:the input could not be read"})
public final class AnalyseMain implements Callable<Integer> {

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "files or folders to read (folders to any depth)")
  List<Path> paths;

  @Option(names = "--title", description = "what to call the sweep (default: the first path's name)")
  String title;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the levels and findings as JSON")
  Path json;

  @Option(names = "--fail-on", split = ",", paramLabel = "KIND",
      description = "exit 1 when a finding of these kinds is found, e.g. THROUGHPUT_DROP,COLD_START; ANOMALY for every anomaly")
  List<String> failOn = new ArrayList<>();

  @Option(names = "--gpus", description = "the accelerators, e.g. \"8x H20 96GB\"")
  String gpus = "";

  @Option(names = "--interconnect", description = "PCIE, NVLINK, INFINIBAND, ETHERNET or SINGLE_DEVICE")
  DeploymentFacts.Interconnect interconnect = DeploymentFacts.Interconnect.UNSPECIFIED;

  @Option(names = "--tp", description = "tensor-parallel size")
  int tensorParallel;

  @Option(names = "--pp", description = "pipeline-parallel size")
  int pipelineParallel;

  @Option(names = "--dp", description = "data-parallel size")
  int dataParallel;

  @Option(names = "--ep", description = "expert-parallel size")
  int expertParallel;

  @Option(names = "--attention", description = "MHA, GQA, MQA or MLA")
  DeploymentFacts.Attention attention = DeploymentFacts.Attention.UNSPECIFIED;

  @Option(names = "--quantisation", description = "e.g. FP8")
  String quantisation = "";

  @Option(names = "--engine", description = "the serving engine and its flags, e.g. \"vLLM 0.11\"")
  String engine = "";

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    DeploymentDescription facts = new DeploymentDescription(gpus, interconnect, tensorParallel, pipelineParallel, dataParallel,
        expertParallel, attention, quantisation, engine, "");
    SweepResult sweep;
    try {
      sweep = OfflineAnalysis.read(paths, facts.isEmpty() ? Optional.empty() : Optional.of(facts), Optional.ofNullable(title));
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("llmbench-analyse: " + e.getMessage());
      return 2;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("[llmbench] " + sweep.title());
    sweep.deploymentDescription().ifPresent(d -> out.println("deployment: " + d.describe()));
    out.print(ConsoleTable.render(sweep.levels()));
    List<String> derived = sweep.levels().stream().map(Derived::of).flatMap(Optional::stream).map(Derived::line).toList();
    if (!derived.isEmpty()) {
      out.println("derived from the summaries (not measured per request or per token):");
      derived.forEach(line -> out.println("  " + line));
    }
    sweep.findings().forEach(f -> out.println(f.text()));
    out.flush();
    if (json != null) Files.writeString(json, ResultJson.sweep(sweep));
    List<Finding> failing = sweep.findings().stream().filter(f -> failOn.stream().anyMatch(k -> matches(k, f.kind()))).toList();
    return failing.isEmpty() ? 0 : 1;
  }

  private static boolean matches(String kind, FindingKind actual) {
    String k = kind.strip().toUpperCase(java.util.Locale.ROOT);
    return k.equals("ANOMALY") ? actual.isAnomaly() : k.equals(actual.name());
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new AnalyseMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }
}
