package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.testkit.BenchKit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A long level is not silent: it says where it stands at the progress interval. */
class ProgressLineTests {

  static final Pattern LINE = Pattern.compile("\\[llmbench] C=2: [\\d.]+ (ms|s) in, (\\d+) done \\((\\d+) failed\\), (\\d+) in "
      + "flight, [\\d.]+ tok/s so far; (\\d+) of 16 requests to go");

  @Test
  void aRunningLevelPrintsDoneInFlightRateErrorsAndWhatIsLeft() {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      BenchKit.run(TwoSecondLevelTestCases.class, "llmbench.progress-interval", "300ms").assertAllPass(1);
    } finally {
      System.setOut(original);
    }
    List<Matcher> lines = captured.toString(StandardCharsets.UTF_8).lines().map(LINE::matcher).filter(Matcher::matches).toList();
    assertThat(lines).as("progress lines of a ~2 s level every 300 ms").hasSizeGreaterThanOrEqualTo(3);
    int lastDone = -1;
    for (Matcher m : lines) {
      int done = Integer.parseInt(m.group(2));
      assertThat(done).as("requests done never go back").isGreaterThanOrEqualTo(lastDone);
      assertThat(Integer.parseInt(m.group(3))).as("failed").isZero();
      assertThat(Integer.parseInt(m.group(4))).as("in flight").isBetween(0, 2);
      assertThat(Integer.parseInt(m.group(5))).as("to go").isEqualTo(16 - done);
      lastDone = done;
    }
    assertThat(lastDone).as("a later line has seen requests done").isPositive();
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
}
