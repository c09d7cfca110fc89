package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several JVMs append to one file at once, as parallel suites or forked test JVMs do: every line lands whole. */
class FileHistoryStoreProcessesTests {

  private static final int PROCESSES = 3;
  private static final int RUNS_EACH = 40;

  @TempDir
  Path dir;

  @Test
  void appendsFromSeveralJvmsAllLand() throws Exception {
    Path file = dir.resolve("history.jsonl");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Process> processes = new ArrayList<>();
    for (int p = 0; p < PROCESSES; p++) {
      processes.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Appender.class.getName(),
          file.toString(), String.valueOf(p)).inheritIO().start());
    }
    for (Process p : processes) {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
    }
    HistoryRead read = new FileHistoryStore(file).read();
    assertThat(read.skipped()).isEmpty();
    assertThat(read.levels()).hasSize(PROCESSES * RUNS_EACH * 2);
    assertThat(read.history().runs()).isEqualTo(PROCESSES * RUNS_EACH);
  }

  /** One writer process: RUNS_EACH runs of two levels each, one append a run. */
  public static final class Appender {
    public static void main(String[] args) throws Exception {
      FileHistoryStore store = new FileHistoryStore(Path.of(args[0]));
      int writer = Integer.parseInt(args[1]);
      for (int r = 0; r < RUNS_EACH; r++) {
        RunIdentity run = HistoryFixtures.run(writer * 1000 + r);
        store.append(List.of(
            new LevelRecord(run, HistoryFixtures.level("C=1"), Map.of("output_throughput", new StoredFigure(r, "tok/s"))),
            new LevelRecord(run, HistoryFixtures.level("C=8"), Map.of("output_throughput", new StoredFigure(r, "tok/s")))));
      }
    }
  }
}
