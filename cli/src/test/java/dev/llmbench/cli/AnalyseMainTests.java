package dev.llmbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line of the analysis: a table in, the findings out, an exit code a script can act on. */
class AnalyseMainTests {

  @TempDir
  Path dir;

  record Ran(int exit, String out, String err) {}

  static Ran run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = new CommandLine(new AnalyseMain()).setCaseInsensitiveEnumValuesAllowed(true).setOut(new PrintWriter(out))
        .setErr(new PrintWriter(err)).execute(args);
    return new Ran(exit, out.toString(), err.toString());
  }

  Path table() throws IOException {
    return Files.writeString(dir.resolve("mla.csv"), """
        concurrency,requests,failed,wall_s,output_throughput,median_tpot_ms,median_ttft_ms
        1,10,0,5.4,59.7,16.7,20
        8,24,0,2.6,300.0,40.0,22
        32,64,0,3.0,500.0,65.0,25
        """);
  }

  @Test
  void printsTheTableTheDeploymentAndEachFindingWithItsCauses() throws IOException {
    Path json = dir.resolve("out.json");
    Ran r = run(table().toString(), "--tp", "8", "--interconnect", "pcie", "--attention", "mla", "--gpus", "8x H20",
        "--json", json.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    // The table's header names its columns, TPOT and ITL as vllm bench serve does; a file's figures are no simulator's.
    assertThat(r.out()).startsWith("[llmbench] mla.csv\ndeployment: 8x H20 · PCIe · TP=8 · MLA\nlevel | ok/sent (err) | wall | "
            + "Output token throughput (tok/s) | E2E latency (s) avg p50 p99 | TTFT (s) avg p99 | Mean, Median, P99 TPOT (ms) | "
            + "Mean, Median, P99 ITL (ms)\nC= 1 | 10/10 ok (0 err)")
        .contains("32x the concurrency (C=1 to C=32) gave 8.4x the throughput (59.7 to 500.0 tok/s): scaling efficiency 26%; "
            + "each decode step slows as the batch grows (TPOT 16.7 to 65.0 ms), so the deployment is bound by "
            + "tensor-parallel all-reduce over PCIe (TP=8)")
        .contains("cause 1 (likely): tensor-parallel all-reduce over PCIe: TP=8 over PCIe")
        .contains("try: cross PCIe less: fewer tensor-parallel ranks with data or pipeline parallelism (e.g. TP=4 x DP=2)");
    assertThat(Files.readString(json)).contains("\"kind\" : \"SCALING\"").contains("\"tensor_parallel\" : 8");
  }

  @Test
  void failOnGivesExitOneWhenAFindingOfThatKindIsThere() throws IOException {
    assertThat(run(table().toString(), "--fail-on", "KNEE").exit()).isEqualTo(1);
    assertThat(run(table().toString(), "--fail-on", "throughput_drop,cold_start").exit()).isZero();
  }

  @Test
  void unreadableInputIsExitTwoWithTheReason() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"hello\": 1}");
    Ran r = run(bad.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("bad.json is neither a level LLMBench wrote nor a vllm bench serve result");
    assertThat(run().exit()).as("no path at all").isEqualTo(2);
  }

  /** The table of the issue that TableReadingTests (llmbench-junit) reads: 512 tokens per request, C=1 to C=32. */
  Path issueTable() throws IOException {
    return Files.writeString(dir.resolve("table.csv"), """
        concurrency,requests,ok,errors,wall,tok/s,lat avg,lat p50,lat p99
        1,4,4,0,33.4,61.3,8.36,8.36,8.36
        2,4,4,0,35.6,57.5,17.80,17.80,17.80
        4,8,8,0,46.4,88.3,23.10,23.00,23.60
        8,16,16,0,29.6,276.6,14.70,14.60,15.10
        16,32,32,0,32.8,499.5,16.30,16.20,
        32,64,64,0,41.5,790.0,20.60,,21.90
        """);
  }

  @Test
  void theCommandLinePrintsWhatItDerived() throws IOException {
    Ran r = run(issueTable().toString(), "--tp", "8", "--interconnect", "pcie",
        "--attention", "MLA");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("derived from the summaries (not measured per request or per token):\n  C=1: 512 output "
        + "tokens per request (tok/s x wall / ok); time per token at most 16.4 ms (E2E median / (tokens - 1); no TTFT, so "
        + "an upper bound); 61.2 tok/s per request (tokens / E2E); 1.00 in flight on average (Little's law: mean E2E x ok "
        + "/ wall); throughput noise ±1.0% from its spread (p50 8.360 s, p99 8.360 s over 4 requests, so p99 is their "
        + "maximum)\n");
  }
}
