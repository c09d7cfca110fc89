package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileHistoryStoreTests {

  @TempDir
  Path dir;

  @Test
  void levelsComeBackAsTheyWereWritten() throws Exception {
    FileHistoryStore store = new FileHistoryStore(dir.resolve("deep/history.jsonl"));
    List<LevelRecord> levels = HistoryFixtures.series("C=32", 3, 1000, 0.02, 99, 0, 1);
    store.append(levels);
    HistoryRead read = store.read();
    assertThat(read.skipped()).isEmpty();
    assertThat(read.levels()).isEqualTo(levels);
  }

  @Test
  void aMissingFileIsAnEmptyHistory() throws Exception {
    HistoryRead read = new FileHistoryStore(dir.resolve("none.jsonl")).read();
    assertThat(read.levels()).isEmpty();
    assertThat(read.skipped()).isEmpty();
  }

  @Test
  void corruptAndHalfWrittenLinesAreSkippedAndReportedNeverTheRest() throws Exception {
    Path file = dir.resolve("history.jsonl");
    FileHistoryStore store = new FileHistoryStore(file);
    List<LevelRecord> levels = HistoryFixtures.series("C=8", 4, 500, 0.02, 99, 0, 2);
    store.append(levels.subList(0, 1));
    Files.writeString(file, "not json at all\n{\"v\":9,\"run\":{}}\n{\"v\":1,\"run\":{\"id\":\"x\"}}\n",
        StandardOpenOption.APPEND);
    store.append(levels.subList(1, 2));
    // A crash in the middle of a line: no newline at the end.
    String whole = HistoryJson.write(levels.get(2));
    Files.writeString(file, whole.substring(0, whole.length() / 2), StandardOpenOption.APPEND);
    store.append(levels.subList(3, 4));

    HistoryRead read = store.read();
    assertThat(read.levels()).containsExactly(levels.get(0), levels.get(1), levels.get(3));
    assertThat(read.skipped()).containsExactly(
        "history.jsonl line 2: not JSON (Unrecognized token 'not': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false'))",
        "history.jsonl line 3: format version 9 is newer than this LLMBench reads (1)",
        "history.jsonl line 4: no \"level\" object",
        "history.jsonl line 6: not JSON (Unexpected end-of-input: was expecting closing quote for a string value)");
    assertThat(Files.readString(file, StandardCharsets.UTF_8)).endsWith("\n");
  }

  @Test
  void concurrentAppendsFromManyThreadsAllLandWhole() throws Exception {
    FileHistoryStore store = new FileHistoryStore(dir.resolve("history.jsonl"));
    int writers = 8;
    int runsEach = 25;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          for (int r = 0; r < runsEach; r++) {
            RunIdentity run = HistoryFixtures.run(writer * 1000 + r);
            List<LevelRecord> levels = new ArrayList<>();
            for (String label : List.of("C=1", "C=8", "C=32")) {
              levels.add(new LevelRecord(run, HistoryFixtures.level(label), Map.of("output_throughput",
                  new StoredFigure(writer * 1000 + r, "tok/s"))));
            }
            store.append(levels);
          }
          return null;
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdownNow();
    }
    HistoryRead read = store.read();
    assertThat(read.skipped()).isEmpty();
    assertThat(read.levels()).hasSize(writers * runsEach * 3);
    assertThat(read.history().runs()).isEqualTo(writers * runsEach);
  }
}
