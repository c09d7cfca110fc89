package dev.llmbench.cli.merge;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Merges the shards of a run into the report one run would have written:
 * {@code MergeMain --out target/merged shard-0 shard-1 ...}. Exit status 0 when merged, 2 when the shards do
 * not add up to one run (a shard or a level missing, another schedule), 1 when a folder cannot be read.
 */
@API(status = INTERNAL)
@Command(name = "llmbench-merge", mixinStandardHelpOptions = true,
    description = "Merges the reports of the shards of one run (llmbench.shard.count > 1) into one report that reads like "
        + "a single run's: per-level JSON and CSV, the table, charts and index.html, and the Allure results.")
public final class MergeMain implements Callable<Integer> {

  static final int INCOMPLETE = 2;

  @Option(names = "--out", required = true, paramLabel = "DIR",
      description = "where the merged run goes: DIR/llmbench (as llmbench.report.dir) and DIR/allure-results")
  Path out;

  @Option(names = "--allow-partial",
      description = "merge even when a shard or a level is missing; each merged level says what it lacks")
  boolean allowPartial;

  @Parameters(arity = "1..*", paramLabel = "SHARD",
      description = "a shard's report folder (the one holding shard.json), or the folder holding its llmbench/ and "
          + "allure-results/ (a Maven module's target/)")
  List<Path> shards;

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    try {
      List<ShardFolder> folders = shards.stream().map(ShardFolder::at).toList();
      List<ShardMerge.MergedSweep> merged = ShardMerge.merge(folders, allowPartial);
      Path reports = out.resolve("llmbench");
      MergedReports.write(merged, reports);
      String allure = "";
      if (folders.stream().anyMatch(f -> f.allure().isPresent())) {
        AllureMerge.merge(folders, merged, reports, out.resolve("allure-results"));
        allure = " and " + out.resolve("allure-results");
      }
      int levels = merged.stream().mapToInt(s -> s.levels().size()).sum();
      spec.commandLine().getOut().printf("[llmbench] merged %d shards (%d sweep%s, %d level%s) into %s%s%n", folders.size(),
          merged.size(), merged.size() == 1 ? "" : "s", levels, levels == 1 ? "" : "s", reports, allure);
      return 0;
    } catch (ShardMerge.IncompleteException e) {
      err.println("[llmbench] " + e.getMessage());
      return INCOMPLETE;
    } catch (IllegalArgumentException | UncheckedIOException e) {
      err.println("[llmbench] " + e.getMessage());
      return 1;
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new MergeMain()).execute(args));
  }
}
