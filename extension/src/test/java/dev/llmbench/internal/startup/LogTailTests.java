package dev.llmbench.internal.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Following a log file as a server writes it, and cutting bytes into lines. */
@Timeout(30)
class LogTailTests {

  private static final Duration POLL = Duration.ofMillis(20);

  @TempDir
  Path dir;

  @Test
  void fileThatDoesNotExistYetIsFollowedOnceCreated() throws IOException {
    Path log = dir.resolve("server.log");
    List<LogLine> lines = new CopyOnWriteArrayList<>();
    try (LogTail tail = LogTail.follow(log, POLL, true, (line, overwritable) -> lines.add(line))) {
      append(log, "first\nsecond\n");
      await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 2);
      append(log, "thi");
      append(log, "rd\n");
      await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 3);
    }
    assertThat(lines).extracting(LogLine::text).containsExactly("first", "second", "third");
    assertThat(lines).noneMatch(LogLine::backlog);
  }

  @Test
  void linesAlreadyThereAreBacklogAndLaterOnesAreNot() throws IOException {
    Path log = dir.resolve("server.log");
    append(log, "old 1\nold 2\n");
    List<LogLine> lines = new CopyOnWriteArrayList<>();
    try (LogTail tail = LogTail.follow(log, POLL, true, (line, overwritable) -> lines.add(line))) {
      append(log, "new\n");
      await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 3);
    }
    assertThat(lines).extracting(LogLine::text).containsExactly("old 1", "old 2", "new");
    assertThat(lines).extracting(LogLine::backlog).containsExactly(true, true, false);
  }

  @Test
  void truncatedOrReplacedFileIsReadFromItsStart() throws IOException {
    Path log = dir.resolve("server.log");
    List<String> lines = new CopyOnWriteArrayList<>();
    try (LogTail tail = LogTail.follow(log, POLL, false, (line, overwritable) -> lines.add(line.text()))) {
      append(log, "before truncation, a long line\n");
      await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 1);
      Files.writeString(log, "short\n"); // truncated and rewritten, shorter than what was read
      await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 2);
      Path rotated = dir.resolve("next.log");
      Files.writeString(rotated, "after rotation, even longer than anything before it\n");
      Files.move(rotated, log, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 3);
    }
    assertThat(lines).containsExactly("before truncation, a long line", "short",
        "after rotation, even longer than anything before it");
  }

  @Test
  void drainReadsEverythingNowIncludingALastLineWithoutLineEnd() throws IOException {
    Path log = dir.resolve("server.log");
    List<String> lines = new CopyOnWriteArrayList<>();
    // A poll far in the future: only drain can have read these.
    try (LogTail tail = LogTail.follow(log, Duration.ofHours(1), false, (line, overwritable) -> lines.add(line.text()))) {
      append(log, "complete\nno line end");
      tail.drain(false);
      assertThat(lines).containsExactly("complete");
      tail.drain(true);
      assertThat(lines).containsExactly("complete", "no line end");
    }
  }

  @Test
  void progressBarRedrawsReplaceEachOtherInTheRecentLines() {
    RecentLines recent = new RecentLines(10);
    LineSplitter splitter = new LineSplitter(1024);
    byte[] tqdm = ("INFO loading\n\rLoading safetensors checkpoint shards:   0% Completed | 0/4\r"
        + "Loading safetensors checkpoint shards:  50% Completed | 2/4\r"
        + "Loading safetensors checkpoint shards: 100% Completed | 4/4\nINFO done\n").getBytes(StandardCharsets.UTF_8);
    List<String> all = new ArrayList<>();
    splitter.feed(tqdm, 0, tqdm.length, (text, overwritable) -> {
      all.add(text);
      recent.add(text, overwritable);
    });
    // Every redraw reaches the phase reader; the recent lines keep the last one only.
    assertThat(all).hasSize(5);
    assertThat(recent.lines()).containsExactly("INFO loading", "Loading safetensors checkpoint shards: 100% Completed | 4/4",
        "INFO done");
  }

  @Test
  void crlfSplitAcrossReadsIsOneLineEnd() {
    LineSplitter splitter = new LineSplitter(1024);
    List<String> lines = new ArrayList<>();
    List<Boolean> overwritable = new ArrayList<>();
    LineSplitter.Sink sink = (text, ow) -> {
      lines.add(text);
      overwritable.add(ow);
    };
    byte[] a = "one\r".getBytes(StandardCharsets.UTF_8);
    byte[] b = "\ntwo\r\n".getBytes(StandardCharsets.UTF_8);
    splitter.feed(a, 0, a.length, sink);
    splitter.feed(b, 0, b.length, sink);
    assertThat(lines).containsExactly("one", "two");
    assertThat(overwritable).containsExactly(false, false);
  }

  @Test
  void multibyteCharacterSplitAcrossReadsIsDecodedWhole() {
    LineSplitter splitter = new LineSplitter(1024);
    List<String> lines = new ArrayList<>();
    byte[] bytes = "100%|██████████| 51/51\n".getBytes(StandardCharsets.UTF_8);
    splitter.feed(bytes, 0, 6, (t, o) -> lines.add(t)); // cuts the first █ (3 bytes) after its first byte
    splitter.feed(bytes, 6, bytes.length - 6, (t, o) -> lines.add(t));
    assertThat(lines).containsExactly("100%|██████████| 51/51");
  }

  @Test
  void overlongLineIsCut() {
    LineSplitter splitter = new LineSplitter(8);
    List<String> lines = new ArrayList<>();
    byte[] bytes = "0123456789abcdef\nok\n".getBytes(StandardCharsets.UTF_8);
    splitter.feed(bytes, 0, bytes.length, (t, o) -> lines.add(t));
    assertThat(lines).containsExactly("01234567 ...(line cut)", "ok");
  }

  @Test
  void recentLinesKeepTheLastOnes() {
    RecentLines recent = new RecentLines(2);
    for (String s : List.of("a", "b", "c")) recent.add(s, false);
    assertThat(recent.lines()).containsExactly("b", "c");
  }

  @Test
  void followedLogFileOfAServerStartedByHandShowsItsPhase() throws IOException {
    Path log = dir.resolve("vllm.log");
    append(log, "(EngineCore pid=1504) INFO 04-24 12:34:54 [gpu_model_runner.py:4735] Starting to load model x...\n");
    try (ServerLog serverLog = ServerLog.follow(log)) {
      await().atMost(Duration.ofSeconds(5)).until(() -> serverLog.phases().current().isPresent());
      assertThat(serverLog.phases().engine()).contains(Engine.VLLM);
      assertThat(serverLog.phases().spans().get(0).startSeen()).isFalse(); // it began before we read the file
      append(log, "(EngineCore pid=1504) INFO 04-24 12:35:20 [backends.py:648] Using cache directory: /root/.cache/vllm/"
          + "torch_compile_cache/fd1e589ad6/rank_0_0/backbone for vLLM's torch.compile\n");
      await().atMost(Duration.ofSeconds(5)).until(() -> serverLog.phases().current().equals(java.util.Optional.of(StartupPhase.COMPILING)));
      assertThat(serverLog.phases().toString()).startsWith("loading model ≥").contains(" → torch.compile ");
    }
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
