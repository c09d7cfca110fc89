package dev.llmbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.history.StoredFigure;
import dev.llmbench.history.FileHistoryStore;
import dev.llmbench.history.LevelIdentity;
import dev.llmbench.history.LevelRecord;
import dev.llmbench.history.RunIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class HistoryMainTests {

  @TempDir
  Path dir;

  @Test
  void printsTheSeriesWithItsChangePointMarkedAndFailsWithinTheNewestRuns() throws Exception {
    Path file = dir.resolve("history.jsonl");
    new FileHistoryStore(file).append(series("C=32", 12, 1200, 0.01, 9, -0.10, 3));
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(new HistoryMain());
    command.setOut(new PrintWriter(out));
    int exit = command.execute("--file", file.toString(), "--level", "C=32", "--fail-within", "3");
    assertThat(exit).isEqualTo(1);
    String[] lines = out.toString().split("\\R");
    assertThat(lines[0]).isEqualTo("[llmbench] history at " + file + ": 12 runs, 1 series; change points at p <= 0.001,"
        + " window 50");
    assertThat(lines[2]).isEqualTo("dev.example.ServingTest.throughputScales C=32  output throughput (tok/s), 12 runs");
    assertThat(lines[3]).startsWith("     1  2026-01-01 02:00  0000000");
    assertThat(lines[12]).startsWith(">   10  2026-01-10 02:00  0000009");
    assertThat(lines[15]).startsWith("  output throughput at C=32 fell ");
    assertThat(lines[15]).contains("between commit 0000008 and 0000009 (run 10 of 12)");
  }

  @Test
  void anUnreadableStoreIsExitTwo() {
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new HistoryMain());
    command.setErr(new PrintWriter(err));
    command.setOut(new PrintWriter(new StringWriter()));
    assertThat(command.execute("--jdbc", "jdbc:nothing:here")).isEqualTo(2);
    assertThat(err.toString()).startsWith("llmbench-history: could not read the history at jdbc:nothing:here: No suitable driver");
  }

  /**
   * Runs 0..runs-1 of one level a day apart, commits named by their run: output throughput around {@code mean} with
   * {@code noise} relative spread, times {@code 1 + step} from run {@code stepAt} on TTFT p50 flat (as the history's own fixtures).
   */
  static List<LevelRecord> series(String label, int runs, double mean, double noise, int stepAt, double step, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Instant start = Instant.parse("2026-01-01T02:00:00Z");
    List<LevelRecord> out = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      double expected = i >= stepAt ? mean * (1 + step) : mean;
      double throughput = expected * (1 + noise * gaussian(random));
      double ttft = 80 * (1 + noise * gaussian(random));
      RunIdentity run = new RunIdentity("run-" + i, start.plusSeconds(86_400L * i), String.format("%07x%033d", i, 0),
          "main", "build-" + i, "vllm", "0.11.0", "llama-3-8b", "ci-runner-1");
      LevelIdentity level = new LevelIdentity("dev.example.ServingTest", "throughputScales", label, "", "a1b2c3d4e5f6",
          "0f1e2d3c4b5a");
      out.add(new LevelRecord(run, level, Map.of("output_throughput", new StoredFigure(throughput, "tok/s"),
          "ttft.p50", new StoredFigure(ttft, "ms"))));
    }
    return out;
  }

  static double gaussian(SplittableRandom random) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
