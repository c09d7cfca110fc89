package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class HistoryMainTests {

  @TempDir
  Path dir;

  @Test
  void printsTheSeriesWithItsChangePointMarkedAndFailsWithinTheNewestRuns() throws Exception {
    Path file = dir.resolve("history.jsonl");
    new FileHistoryStore(file).append(HistoryFixtures.series("C=32", 12, 1200, 0.01, 9, -0.10, 3));
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
}
