package dev.llmbench.offline;

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
    assertThat(r.out()).startsWith("[llmbench] mla.csv\ndeployment: 8x H20 · PCIe · TP=8 · MLA\nC= 1 | 10/10 ok (0 err)")
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
}
