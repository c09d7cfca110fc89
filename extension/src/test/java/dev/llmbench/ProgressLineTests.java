package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.internal.config.ProgressMode;
import dev.llmbench.testkit.BenchKit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A long level is not silent: it says where it stands (done of total, ok and failed by kind, in flight, time left,
 * rolling TTFT and TPOT), as a plain line at the progress interval in a log or CI, or as one line redrawn in place.
 */
class ProgressLineTests {

  static final String MS = "[\\d.]+ (?:µs|ms|s)";
  static final Pattern LINE = Pattern.compile("\\[llmbench] C=2: (\\d+) of 16 requests done \\((\\d+) ok, (\\d+) failed"
      + "(?:: ([^)]*))?\\), (\\d+) in flight, " + MS + " in, (about " + MS + " left|time left unknown until a request "
      + "completes); [\\d.]+ tok/s so far; (?:last " + MS + ": TTFT p50 (" + MS + "|-), TPOT p50 (" + MS + "|-)|no request "
      + "completed in the last " + MS + ")");

  /** What {@code run} printed to {@code System.out}. */
  static String captured(Supplier<?> run) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      run.get();
    } finally {
      System.setOut(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aRunningLevelPrintsDoneOkFailedInFlightTimeLeftAndRollingLatencies() {
    String out = captured(() -> assertThat(BenchKit.run(TwoSecondLevelTestCases.class, "llmbench.progress-interval", "300ms",
        "llmbench.progress", "lines")).passed("C=2"));
    assertThat(out).doesNotContain("\r");
    List<Matcher> lines = out.lines().map(LINE::matcher).filter(Matcher::matches).toList();
    assertThat(lines).as("progress lines of a ~2 s level every 300 ms in:%n%s", out).hasSizeGreaterThanOrEqualTo(3);
    int lastDone = -1;
    for (Matcher m : lines) {
      int done = Integer.parseInt(m.group(1));
      assertThat(done).as("requests done never go back").isGreaterThanOrEqualTo(lastDone);
      assertThat(Integer.parseInt(m.group(2))).as("ok").isEqualTo(done);
      assertThat(Integer.parseInt(m.group(3))).as("failed").isZero();
      assertThat(Integer.parseInt(m.group(5))).as("in flight").isBetween(0, 2);
      if (done > 0) {
        assertThat(m.group(6)).as("time left at the pace so far").startsWith("about ");
        assertThat(m.group(7)).as("rolling TTFT").isNotNull().isNotEqualTo("-");
        assertThat(m.group(8)).as("rolling TPOT").isNotNull().isNotEqualTo("-");
      }
      lastDone = done;
    }
    assertThat(lastDone).as("a later line has seen requests done").isPositive();
  }

  @Test
  void failedRequestsAreCountedByKind() {
    String out = captured(() -> BenchKit.run(TwoSecondLevelTestCases.class, "llmbench.progress-interval", "300ms",
        "llmbench.progress", "lines", "llmbench.embedded.faults", "http503:every4"));
    List<Matcher> lines = out.lines().map(LINE::matcher).filter(Matcher::matches).toList();
    Matcher last = lines.get(lines.size() - 1);
    int failed = Integer.parseInt(last.group(3));
    assertThat(failed).as("in %s", last.group()).isPositive();
    assertThat(last.group(4)).isEqualTo("HTTP 503 " + failed);
    assertThat(Integer.parseInt(last.group(2)) + failed).isEqualTo(Integer.parseInt(last.group(1)));
  }

  @Test
  void onAnInteractiveTerminalOneLineIsRedrawnInPlace() {
    String out = captured(() -> assertThat(BenchKit.run(TwoSecondLevelTestCases.class, "llmbench.progress-interval", "300ms",
        "llmbench.progress", "redraw")).passed("C=2"));
    int first = out.indexOf("\r[llmbench] C=2: ");
    assertThat(first).as("a redrawn line in:%n%s", out).isNotNegative();
    int table = out.indexOf("[llmbench] TwoSecondLevelTestCases.sweep");
    assertThat(table).isGreaterThan(first);
    String drawing = out.substring(first, table);
    // Each redraw starts with a carriage return and none ends with a newline; the last is blanked before the table.
    String[] redraws = drawing.split("\r");
    List<String> progress = java.util.Arrays.stream(redraws).filter(r -> r.startsWith("[llmbench] C=2: ")).toList();
    assertThat(progress).as("redraws of a ~2 s level every 300 ms").hasSizeGreaterThanOrEqualTo(3);
    for (String r : progress) {
      assertThat(r).doesNotContain("\n");
      // Whole, or cut to the terminal's width where the environment says it (COLUMNS).
      String shown = r.stripTrailing();
      assertThat(shown.endsWith("…") ? LINE.matcher(shown).lookingAt() || shown.length() == Integer.parseInt(
          System.getenv("COLUMNS").strip()) : LINE.matcher(shown).matches()).as("redrawn: %s", r).isTrue();
    }
    assertThat(drawing.chars().filter(c -> c == '\n').count()).as("newlines while the level ran").isLessThanOrEqualTo(1);
    assertThat(drawing).contains("\r" + " ".repeat(progress.get(progress.size() - 1).stripTrailing().length()));
  }

  @Test
  void autoRedrawsOnlyWithAConsoleAndOutsideCi() {
    assertThat(ProgressMode.AUTO.resolve(true, Map.of())).isEqualTo(ProgressMode.REDRAW);
    assertThat(ProgressMode.AUTO.resolve(false, Map.of())).isEqualTo(ProgressMode.LINES);
    assertThat(ProgressMode.AUTO.resolve(true, Map.of("CI", "true"))).isEqualTo(ProgressMode.LINES);
    assertThat(ProgressMode.AUTO.resolve(true, Map.of("JENKINS_URL", "http://ci/"))).isEqualTo(ProgressMode.LINES);
    assertThat(ProgressMode.AUTO.resolve(true, Map.of("TERM", "dumb"))).isEqualTo(ProgressMode.LINES);
    assertThat(ProgressMode.LINES.resolve(true, Map.of())).isEqualTo(ProgressMode.LINES);
  }

  @Test
  void aDurationBoundedLevelSaysHowMuchOfItsTimeIsLeft() {
    String out = captured(() -> assertThat(BenchKit.run(DurationLevelTestCases.class, "llmbench.progress-interval", "300ms",
        "llmbench.progress", "lines")).passed("C=2"));
    Pattern timed = Pattern.compile("\\[llmbench] C=2: (\\d+) requests done \\((\\d+) ok, 0 failed\\), \\d in flight, " + MS
        + " in, (" + MS + ") of 1.500 s left; .*");
    List<Matcher> lines = out.lines().map(timed::matcher).filter(Matcher::matches).toList();
    assertThat(lines).as("in:%n%s", out).hasSizeGreaterThanOrEqualTo(2);
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class TwoSecondLevelTestCases {
    // 16 requests of 12 tokens, 2 at a time: 8 rounds of ~0.25 s.
    @ConcurrencySweep(2)
    @Workload(maxTokens = 12)
    @Measurement(requests = 16)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class DurationLevelTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 12)
    @Measurement(duration = "1500ms", grace = "1s")
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }
}
