package dev.llmbench.internal.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The phase recogniser on verbatim startup logs. Lines are replayed with the time the engine printed
 * (llama.cpp's clock prefix) or, for logs without one, one second per line, so every duration is exact.
 *
 * <p>Fixtures: llama-server-b11669*.log are this machine's Debian llama.cpp-tools 0.7.0 (build 11669),
 * started as scripts/llama-server.sh does, with the slow-load model (default verbosity, -lv 4, and a
 * missing model file). llama-server-b4840.log is llama-server build 4840 (3ffbbd5c) on Apple M1, from a
 * public write-up, shortened where it dumps model metadata.
 */
class StartupPhasesTests {

  private static final Pattern LLAMA_CLOCK = Pattern.compile("^(\\d+)\\.(\\d{2})\\.(\\d{3})\\.(\\d{3}) ");

  @Test
  void llamaServerAtDefaultVerbosityLoadsWarmsUpAndListens() {
    PhaseHistory h = replay(StartupPhases.fromLaunch(0), "llama-server-b11669.log");
    assertThat(h.engine()).contains(Engine.LLAMA_CPP);
    assertThat(phases(h)).containsExactly(StartupPhase.STARTING, StartupPhase.LOADING_MODEL, StartupPhase.WARMING_UP,
        StartupPhase.LISTENING);
    // 0.00.096.601 loading model '...', 0.00.806.161 llama threadpool init, 0.01.603.440 listening on
    assertThat(h.spans().get(0).time()).isEqualTo(Duration.ofNanos(96_601_000));
    assertThat(h.spans().get(1).time()).isEqualTo(Duration.ofNanos(806_161_000 - 96_601_000));
    assertThat(h.spans().get(2).time()).isEqualTo(Duration.ofNanos(1_603_440_000L - 806_161_000));
    assertThat(h).hasToString("starting 0.1 s → loading model 0.7 s → warming up 0.8 s → listening");
    assertThat(h.engineTimings()).containsExactly(new EngineTiming("listening after", Duration.ofNanos(1_603_440_000L)));
    assertThat(h.describe()).isEqualTo("llama.cpp: starting 0.1 s → loading model 0.7 s → warming up 0.8 s → listening "
        + "(llama.cpp printed: listening after 1.6 s)");
    assertThat(h.listening()).isTrue();
  }

  @Test
  void llamaServerAtVerbosity4AlsoShowsTheKvCache() {
    PhaseHistory h = replay(StartupPhases.fromLaunch(0), "llama-server-b11669-lv4.log");
    assertThat(phases(h)).containsExactly(StartupPhase.STARTING, StartupPhase.LOADING_MODEL, StartupPhase.KV_CACHE,
        StartupPhase.WARMING_UP, StartupPhase.LISTENING);
    // 0.00.038.951 loading model, 0.00.091.014 constructing llama_context, 0.00.427.420 threadpool init, 0.00.752.045 listening
    assertThat(h.timeIn(StartupPhase.LOADING_MODEL)).isEqualTo(Duration.ofNanos(91_014_000 - 38_951_000));
    assertThat(h.timeIn(StartupPhase.KV_CACHE)).isEqualTo(Duration.ofNanos(427_420_000 - 91_014_000));
    assertThat(h.timeIn(StartupPhase.WARMING_UP)).isEqualTo(Duration.ofNanos(752_045_000 - 427_420_000));
  }

  @Test
  void olderLlamaServerWithoutClockPrefix() {
    List<String> lines = lines("llama-server-b4840.log");
    PhaseHistory h = replay(StartupPhases.fromLaunch(0), "llama-server-b4840.log");
    assertThat(h.engine()).contains(Engine.LLAMA_CPP);
    assertThat(phases(h)).containsExactly(StartupPhase.STARTING, StartupPhase.LOADING_MODEL, StartupPhase.KV_CACHE,
        StartupPhase.WARMING_UP, StartupPhase.LISTENING);
    // One second per line: each phase lasts as many seconds as it has lines.
    int loading = lines.indexOf("main: loading model");
    int context = lines.indexOf("llama_init_from_model: n_seq_max     = 1");
    int warmup = indexOfPrefix(lines, "common_init_from_params: warming up");
    int listening = indexOfPrefix(lines, "main: server is listening on");
    assertThat(h.spans().get(0).time()).isEqualTo(Duration.ofSeconds(loading + 1)); // lines are stamped 1 s, 2 s, ...
    assertThat(h.spans().get(1).time()).isEqualTo(Duration.ofSeconds(context - loading));
    assertThat(h.spans().get(2).time()).isEqualTo(Duration.ofSeconds(warmup - context));
    assertThat(h.spans().get(3).time()).isEqualTo(Duration.ofSeconds(listening - warmup));
    assertThat(h.engineTimings()).isEmpty(); // no clock prefix, no duration printed
  }

  @Test
  void earlyHttpListenerOfOldBuildsIsNotReadiness() {
    StartupPhases p = StartupPhases.fromLaunch(0);
    p.accept(new LogLine("main: HTTP server is listening, hostname: 127.0.0.1, port: 8080, http threads: 9", 1, false));
    assertThat(p.engine()).contains(Engine.LLAMA_CPP);
    assertThat(p.snapshot(2).current()).contains(StartupPhase.STARTING);
    assertThat(p.snapshot(2).listening()).isFalse();
  }

  @Test
  void missingModelStopsInTheLoadPhase() {
    PhaseHistory h = replay(StartupPhases.fromLaunch(0), "llama-server-b11669-missing-model.log");
    assertThat(h.current()).contains(StartupPhase.LOADING_MODEL);
    assertThat(h.listening()).isFalse();
    assertThat(h.spans().get(1).open()).isTrue();
  }

  @Test
  void endedHistoryNoLongerSaysSoFar() {
    PhaseHistory h = replay(StartupPhases.fromLaunch(0), "llama-server-b11669-missing-model.log");
    assertThat(h.toString()).endsWith(" so far");
    assertThat(h.ended().toString()).startsWith("starting 0.0 s → loading model ").doesNotContain("so far");
    assertThat(h.ended().spans().get(1).time()).isEqualTo(h.spans().get(1).time());
  }

  @Test
  void currentPhaseIsTimedUpToNowAndSaysSoFar() {
    StartupPhases p = StartupPhases.fromLaunch(0);
    p.accept(new LogLine("0.00.096.601 I srv    load_model: loading model '/opt/llmbench/slow-load.gguf'", 100_000_000, false));
    PhaseHistory h = p.snapshot(2_100_000_000L);
    assertThat(h).hasToString("starting 0.1 s → loading model 2.0 s so far");
    assertThat(h.current()).contains(StartupPhase.LOADING_MODEL);
  }

  @Test
  void linesAfterListeningChangeNothing() {
    StartupPhases p = StartupPhases.fromLaunch(0);
    p.accept(new LogLine("srv  llama_server: listening on http://127.0.0.1:8080", 1_000_000_000, false));
    p.accept(new LogLine("srv    load_model: loading model 'other.gguf'", 2_000_000_000, false));
    assertThat(phases(p.snapshot(3_000_000_000L))).containsExactly(StartupPhase.STARTING, StartupPhase.LISTENING);
  }

  @Test
  void unknownEngineGivesNoPhasesAndNoError() {
    StartupPhases p = StartupPhases.fromLaunch(0);
    for (String line : List.of("Starting my-own-server 1.2 on :8080", "loading model weights...", "ready")) {
      p.accept(new LogLine(line, 1, false));
    }
    PhaseHistory h = p.snapshot(2);
    assertThat(h).isEqualTo(PhaseHistory.NONE);
    assertThat(h.isEmpty()).isTrue();
    assertThat(h.describe()).isEmpty();
    assertThat(h).hasToString("");
  }

  @Test
  void phasesReadFromAnExistingLogHaveNoTimeOfTheirOwn() {
    // The server was started by hand: its first lines were in the file before reading began (at 5 s).
    List<String> lines = lines("llama-server-b11669.log");
    StartupPhases p = StartupPhases.fromLog();
    int threadpool = indexOfContaining(lines, "llama threadpool init");
    for (int i = 0; i < lines.size(); i++) {
      boolean backlog = i <= threadpool;
      p.accept(new LogLine(lines.get(i), backlog ? 5_000_000_000L : 5_000_000_000L + clock(lines.get(i)), backlog));
    }
    PhaseHistory h = p.snapshot(10_000_000_000L);
    assertThat(phases(h)).containsExactly(StartupPhase.LOADING_MODEL, StartupPhase.WARMING_UP, StartupPhase.LISTENING);
    assertThat(h.spans().get(0).startSeen()).isFalse();
    assertThat(h.spans().get(1).startSeen()).isFalse();
    // Loading began and ended before reading: no time. Warm-up began before: at least what was seen.
    assertThat(h.toString()).isEqualTo("loading model → warming up ≥1.6 s → listening");
  }

  @Test
  void durationsAreWrittenForSecondsAndMinutes() {
    assertThat(PhaseHistory.seconds(Duration.ofMillis(300))).isEqualTo("0.3 s");
    assertThat(PhaseHistory.seconds(Duration.ofMillis(41_240))).isEqualTo("41.2 s");
    assertThat(PhaseHistory.seconds(Duration.ofSeconds(725))).isEqualTo("12 min 5 s");
  }

  // --- helpers

  static PhaseHistory replay(StartupPhases p, String resource) {
    List<String> lines = lines(resource);
    long last = 0;
    for (int i = 0; i < lines.size(); i++) {
      long at = LLAMA_CLOCK.matcher(lines.get(i)).find() ? clock(lines.get(i)) : (i + 1) * 1_000_000_000L;
      last = Math.max(last, at);
      p.accept(new LogLine(lines.get(i), at, false));
    }
    return p.snapshot(last);
  }

  /** llama.cpp's clock prefix in nanoseconds; 0 for a line without one (a continuation line). */
  private static long clock(String line) {
    Matcher m = LLAMA_CLOCK.matcher(line);
    if (!m.find()) return 0;
    long micros = ((Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2))) * 1000 + Long.parseLong(m.group(3))) * 1000
        + Long.parseLong(m.group(4));
    return micros * 1000;
  }

  static List<String> lines(String resource) {
    try (InputStream in = StartupPhasesTests.class.getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("no test resource " + resource);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<StartupPhase> phases(PhaseHistory h) {
    return h.spans().stream().map(PhaseSpan::phase).toList();
  }

  private static int indexOfPrefix(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(prefix)) return i;
    throw new AssertionError("no line starts with " + prefix);
  }

  private static int indexOfContaining(List<String> lines, String part) {
    for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(part)) return i;
    throw new AssertionError("no line contains " + part);
  }
}
