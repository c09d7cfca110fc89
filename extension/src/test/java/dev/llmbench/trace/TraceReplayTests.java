package dev.llmbench.trace;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.result.LoadShape;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import dev.llmbench.testkit.WakeProbe;
import dev.llmbench.workload.ExactInputTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Trace replay through the JUnit Platform: rows at the trace's timestamps (scaled), equal hash_ids as byte-equal
 * blocks the engine's prefix cache finds, and every kind of bad trace failing before the first request.
 */
class TraceReplayTests {

  static final Path DIR = Path.of("target", "trace-tests");
  /** Timestamps of the timed trace, in ms: uneven gaps, two rows at one moment. */
  static final long[] TIMES = {0, 40, 40, 100, 130, 250, 260, 300, 420, 440, 500, 520, 600, 610, 700, 760, 800, 880, 900, 960};
  /** The example row the messages on a bad trace end with. */
  private static final String EXAMPLE_ROW = "{\"timestamp\": 0, \"input_length\": 655, \"output_length\": 52, "
      + "\"hash_ids\": [0, 1]}";

  @BeforeAll
  static void traces() throws IOException {
    Files.createDirectories(DIR);
    List<String> timed = new ArrayList<>();
    for (int i = 0; i < TIMES.length; i++) {
      timed.add("{\"timestamp\": " + TIMES[i] + ", \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [" + (i % 3) + ", "
          + (100 + i) + "], \"session_id\": \"s" + (i % 4) + "\"}");
    }
    Files.write(DIR.resolve("timed.jsonl"), timed);
    // Blocks of 16 words, as the embedded engine's prefix cache hashes 16 tokens: 3 blocks each.
    Files.write(DIR.resolve("shared.jsonl"), List.of(SHARED));
    List<String> distinct = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      distinct.add("{\"timestamp\": " + i + ", \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [" + (3 * i) + ", "
          + (3 * i + 1) + ", " + (3 * i + 2) + "]}");
    }
    Files.write(DIR.resolve("distinct.jsonl"), distinct);
  }

  static final String[] SHARED = {
      "{\"timestamp\": 0, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [1, 2, 3]}",
      "{\"timestamp\": 1, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [1, 2, 4]}",
      "{\"timestamp\": 2, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [1, 5, 6]}",
      "{\"timestamp\": 3, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [1, 2, 3]}",
      "{\"timestamp\": 4, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [7, 2, 3]}",
      "{\"timestamp\": 5, \"input_length\": 48, \"output_length\": 2}",
      "{\"timestamp\": 6, \"input_length\": 40, \"output_length\": 3, \"hash_ids\": [1, 2, 9]}",
      "{\"timestamp\": 7, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [7, 2, 8]}"};

  /** Tokens the engine's prefix cache (16-token blocks, chained) serves when the SHARED rows go one after another. */
  static long expectedSharedHits() throws IOException {
    ObjectMapper json = new ObjectMapper();
    Set<List<Long>> seen = new HashSet<>();
    long hits = 0;
    for (String line : SHARED) {
      JsonNode row = json.readTree(line);
      List<Long> ids = new ArrayList<>();
      row.path("hash_ids").forEach(id -> ids.add(id.asLong()));
      int fullBlocks = row.get("input_length").asInt() / 16;
      int hit = 0;
      while (hit < Math.min(ids.size(), fullBlocks) && seen.contains(ids.subList(0, hit + 1))) hit++;
      hits += 16L * hit;
      for (int k = 1; k <= Math.min(ids.size(), fullBlocks); k++) seen.add(List.copyOf(ids.subList(0, k)));
    }
    return hits;
  }

  @Test
  void aTraceReplaysAtItsOwnTimestampsScaledOneLevelPerTimeScaleWithItsLagInTheJson() throws IOException {
    BenchKit.Run run = WakeProbe.during(() -> BenchKit.run(TimedTestCases.class));
    assertThat(run).passed("trace x1", "trace x4");
    JsonNode level = new ObjectMapper().readTree(run.sweepDir(TimedTestCases.class, "replay").resolve("trace_x4.json").toFile());
    JsonNode lag = level.path("llmbench").path("schedule_lag");
    assertThat(lag.path("count").asInt()).isEqualTo(TIMES.length);
    assertThat(lag.path("p50_ms").asDouble()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(lag.path("p99_ms").asDouble());
    assertThat(lag.path("p99_ms").asDouble()).isLessThanOrEqualTo(lag.path("max_ms").asDouble());
    assertThat(level.path("llmbench").path("prompts").asText()).isEqualTo("mooncake:timed.jsonl (20 rows, 16-token blocks, x4)");
    assertThat(level.path("llmbench").path("max_tokens").asInt()).as("the largest output_length").isEqualTo(2);
  }

  @Test
  void equalHashIdsAreEqualBlocksThatThePrefixCacheFinds() {
    assertThat(BenchKit.run(SharedTestCases.class)).passed("C=1");
  }

  /**
   * Tokens the engine's prefix cache serves for the SHARED rows aligned to exact lengths, one after another: its
   * tokenizer's word tokens, the lead word first and what else the template adds ({@code overhead - 1} tokens) after
   * the text, so row r is [lead, its blocks' tokens, template]; its blocks, each 16 tokens but the last, which the
   * template shortens, are named by id and position. The engine's cache: chained 16-token blocks, at most
   * (prompt - 1) / 16 of them hit, every full block cached after.
   */
  static long expectedAlignedHits(int overhead) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Set<List<String>> seen = new HashSet<>();
    long hits = 0;
    int line = 0;
    for (String text : SHARED) {
      line++;
      JsonNode row = json.readTree(text);
      int length = row.get("input_length").asInt();
      List<String> tokens = new ArrayList<>(List.of("lead"));
      List<String> ids = new ArrayList<>();
      row.path("hash_ids").forEach(id -> ids.add(id.asText()));
      int left = length - overhead;
      for (int b = 0; left > 0; b++) {
        String id = ids.isEmpty() ? "own" + line + ":" + b : ids.get(b);
        for (int t = 0; t < Math.min(16, left); t++) tokens.add(id + "/" + t);
        left -= 16;
      }
      while (tokens.size() < length) tokens.add("template");
      int full = tokens.size() / 16;
      int hittable = Math.min(full, (tokens.size() - 1) / 16);
      int hit = 0;
      while (hit < hittable && seen.contains(tokens.subList(0, 16 * (hit + 1)))) hit++;
      hits += 16L * hit;
      for (int k = 1; k <= full; k++) seen.add(List.copyOf(tokens.subList(0, 16 * k)));
    }
    return hits;
  }

  @Test
  void alignedHashIdBlocksAreExactlyTheirTokensOnTheServerAndThePrefixCacheFindsThem() {
    assertThat(BenchKit.run(AlignedTestCases.class)).passed("C=1");
  }

  @Test
  void alignedDistinctHashIdsShareNothing() {
    assertThat(BenchKit.run(AlignedDistinctTestCases.class)).passed("C=1");
  }

  @Test
  void distinctHashIdsShareNothing() {
    assertThat(BenchKit.run(DistinctTestCases.class)).passed("C=1");
  }

  @Test
  void rowsGoUnderARateInsteadOfTheirTimestamps() {
    assertThat(BenchKit.run(UnderRateTestCases.class)).passed("rate=200/s");
  }

  // ----- bad input: each fails before the first request, naming file, line and field

  @Test
  void badTracesFailBeforeAnyRequestNamingFileLineAndField() throws IOException {
    String ok = "{\"timestamp\": 0, \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [0, 1]}";
    // In parentheses after "not JSON", the JSON parser's own words: Jackson's to choose.
    bad(List.of(ok, "{\"timestamp\": 5, \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [0, 1]"),
        "line 2: not JSON ({*}); expected one JSON object per line, e.g. " + EXAMPLE_ROW);
    bad(List.of(ok, "[1, 2]"), "line 2: is a JSON array, not an object; expected e.g. " + EXAMPLE_ROW);
    bad(List.of(ok, "", "{\"timestamp\": 5, \"output_length\": 2}"), "line 3, field \"input_length\": missing; every row "
        + "needs timestamp, input_length and output_length, e.g. " + EXAMPLE_ROW);
    bad(List.of(ok, "{\"timestamp\": 5, \"input_length\": -20, \"output_length\": 2}"),
        "line 2, field \"input_length\": -20 is negative; expected an integer, at least 1, e.g. \"input_length\": 655");
    bad(List.of(ok, "{\"timestamp\": 5, \"input_length\": 20, \"output_length\": 0}"),
        "line 2, field \"output_length\": 0 is zero; expected an integer, at least 1, e.g. \"output_length\": 52");
    bad(List.of("{\"timestamp\": 100, \"input_length\": 20, \"output_length\": 2}", "{\"timestamp\": 40, \"input_length\": 20, "
        + "\"output_length\": 2}"), "line 2, field \"timestamp\": 40 is before line 1's 100: timestamps must not go "
        + "backwards; expected rows in time order (sort the file by timestamp)");
    bad(List.of(ok, "{\"timestamp\": 5, \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [0, \"a\"]}"),
        "line 2, field \"hash_ids\": element 1 (\"a\") is not an integer; expected a list of integers naming blocks of 16 "
            + "tokens, e.g. \"hash_ids\": [0, 1, 2]");
    bad(List.of(ok, "{\"timestamp\": 5, \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [0, 1.5]}"),
        "line 2, field \"hash_ids\": element 1 (1.5) is not an integer; expected a list of integers naming blocks of 16 "
            + "tokens, e.g. \"hash_ids\": [0, 1, 2]");
    bad(List.of(ok, "{\"timestamp\": 5, \"input_length\": 40, \"output_length\": 2, \"hash_ids\": [0, 1]}"),
        "line 2, field \"hash_ids\": 2 ids for input_length 40 in blocks of 16 tokens; expected 3 ids (one per block, the "
            + "last one partial), or the trace's own block size in @Trace(blockSize)");
    bad(List.of(ok, "{\"timestamp\": \"soon\", \"input_length\": 20, \"output_length\": 2}"),
        "line 2, field \"timestamp\": \"soon\" is not a time; expected milliseconds as a number, 0 or more, e.g. "
            + "\"timestamp\": 27482");
    // A file of another format: a ShareGPT array, a vLLM custom or OpenAI chat JSONL row.
    bad(List.of("[", "  {\"conversations\": [{\"from\": \"human\", \"value\": \"Hi\"}]}", "]"),
        "line 1: starts a JSON array, so it is not a trace of JSON Lines (a ShareGPT file is read by @Dataset(format = "
            + "SHAREGPT)); expected one JSON object per line, e.g. " + EXAMPLE_ROW);
    bad(List.of("{\"prompt\": \"Hi\", \"output_tokens\": 5}"), "line 1, field \"timestamp\": missing (the row has \"prompt\": "
        + "it looks like vLLM custom JSONL, read by @Dataset(format = VLLM_CUSTOM)); every row needs timestamp, "
        + "input_length and output_length, e.g. " + EXAMPLE_ROW);
    bad(List.of("{\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}"), "line 1, field \"timestamp\": missing (the "
        + "row has \"messages\": it looks like OpenAI chat JSONL, read by @Dataset(format = OPENAI_CHAT)); every row needs "
        + "timestamp, input_length and output_length, e.g. " + EXAMPLE_ROW);
    bad(List.of(), "holds no trace rows (the file is empty or blank); expected one JSON object per line, e.g. " + EXAMPLE_ROW);
    bad(List.of("", "  "), "holds no trace rows (the file is empty or blank); expected one JSON object per line, e.g. "
        + EXAMPLE_ROW);
  }

  @Test
  void aTraceThatCannotBeReadOrAMissingTraceIsAConfigurationError() {
    try (StubEngine stub = StubEngine.builder().start()) {
      assertThat(BenchKit.run(NoTraceTestCases.class, "llmbench.base-url", stub.url())).hasConfigurationError(
          "Configuration error: sweep on method [NoTraceTestCases#replay]: @TraceReplay replays a trace: add "
              + "@Trace(\"path/to/trace.jsonl\") beside it");
      Path missing = DIR.resolve("no-such-trace.jsonl");
      assertThat(BenchKit.run(MissingFileTestCases.class, "llmbench.base-url", stub.url())).hasConfigurationError(
          "Configuration error: sweep on method [MissingFileTestCases#replay]: cannot read trace file "
              + missing.toAbsolutePath() + ": java.nio.file.NoSuchFileException: " + missing);
      assertThat(BenchKit.run(TooManyRequestsTestCases.class, "llmbench.base-url", stub.url())).hasConfigurationError(
          "Configuration error: sweep on method [TooManyRequestsTestCases#replay]: C=2 would send 21 requests, but the "
              + "trace " + DIR.resolve("timed.jsonl") + " has 20 rows and each is sent once: ask for at most 20 (or leave "
              + "@Measurement(requests) automatic for all of them)");
      assertThat(stub.prefixCacheQueries()).as("prompt tokens the server saw").isZero();
    }
  }

  /** A trace of {@code lines} fails before any request with {@code what} ({@link Messages#pattern}) after the file's name. */
  private static void bad(List<String> lines, String what) throws IOException {
    Path file = DIR.resolve("bad.jsonl");
    Files.write(file, lines);
    try (StubEngine stub = StubEngine.builder().start()) {
      assertThat(BenchKit.run(BadTraceTestCases.class, "llmbench.base-url", stub.url())).hasSingleFailure()
          .failedWith(ExtensionConfigurationException.class).hasMessageMatching(Messages.pattern(
              "Configuration error: sweep on method [BadTraceTestCases#replay]: " + file + " " + what));
      assertThat(stub.prefixCacheQueries()).as("prompt tokens the server saw for %s", lines).isZero();
    }
  }

  // ----- fixtures

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class TimedTestCases {
    @TraceReplay(timeScale = {1, 4})
    @Trace(value = "target/trace-tests/timed.jsonl", blockSize = 16)
    void replay(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(TIMES.length);
      double scale = r.label().equals("trace x1") ? 1 : 4;
      assertThat(((LoadShape.OpenLoop) r.load()).rate().perSecond()).as("the trace's mean rate at x%s", scale)
          .isCloseTo(TIMES.length / (0.960 / scale), org.assertj.core.api.Assertions.within(1e-6));
      List<RequestMetrics> byDue = ((MeasuredLevel) r).metrics().stream()
          .sorted(Comparator.comparingLong(m -> m.trace().scheduledNanos())).toList();
      long first = byDue.get(0).trace().scheduledNanos();
      for (int i = 0; i < TIMES.length; i++) {
        // Due exactly at the trace's time over the scale; sent at or after it, never before.
        assertThat(byDue.get(i).trace().scheduledNanos() - first).as("due time of row %d (ns)", i)
            .isCloseTo(Math.round(TIMES[i] * 1e6 / scale), org.assertj.core.api.Assertions.within(1L));
        assertThat(byDue.get(i).trace().startNanos()).as("row %d sent after it was due", i)
            .isGreaterThanOrEqualTo(byDue.get(i).trace().scheduledNanos());
        assertThat(byDue.get(i).outputTokens()).as("row %d's output_length", i).isEqualTo(2);
      }
      // The same run sets the bound: the median row went out within one of the engine's token steps of when it
      // was due, plus how late this JVM's threads woke during the level (a loaded machine widens both alike;
      // its stalls land in the tail, which the finding reads), once each row's lag has had taken off it how long
      // this JVM ran no thread at all between its due time and its send (the probe's late wake-ups), or the sending
      // thread waited for a core, when longer (WakeProbe.heldBetween): a stall of
      // the whole process holds back every row due during it, but is one wake-up of many in the wake-up lag's p90.
      Duration tpot = r.tpot().percentile(50).orElseThrow();
      Duration wakeup = r.clientLoad().orElseThrow().wakeupLagP90();
      Distribution lag = r.scheduleLag().orElseThrow();
      assertThat(lag.count()).isEqualTo(TIMES.length);
      WakeProbe probe = WakeProbe.current();
      long[] stalls = byDue.stream().mapToLong(m -> probe.heldBetween(m.trace().scheduledNanos(), m.trace().startNanos()))
          .sorted().toArray();
      long[] beyondStall = byDue.stream().mapToLong(m -> m.trace().startNanos() - m.trace().scheduledNanos()
          - probe.heldBetween(m.trace().scheduledNanos(), m.trace().startNanos())).sorted().toArray();
      Duration median = Duration.ofNanos((beyondStall[9] + beyondStall[10]) / 2);
      assertThat(median).as("median schedule lag (%s) beyond the time the process stalled or the sender waited for a core before each row's send (median %s ms), "
          + "against TPOT p50 %s + wake-up lag p90 %s", lag.percentile(50).orElseThrow(),
          (stalls[9] + stalls[10]) / 2e6, tpot, wakeup).isLessThan(tpot.plus(wakeup));
      // With fewer than 100 requests the finding reads the latest send: it says the client fell behind exactly when it did.
      boolean behind = lag.max().orElseThrow().compareTo(Duration.ofMillis(10)) >= 0;
      assertThat(r.findings().stream().anyMatch(f -> f.kind() == FindingKind.BEHIND_SCHEDULE)).as("behind, lag %s", lag.max())
          .isEqualTo(behind);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class SharedTestCases {
    @ConcurrencySweep(1)
    @Trace(value = "target/trace-tests/shared.jsonl", blockSize = 16)
    void rows(SweepLevelResult r) throws IOException {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(SHARED.length);
      // One request at a time, each after the one before: the engine's hits are exactly the blocks the trace shares.
      assertThat(r.prefixCache().orElseThrow().cachedTokens()).isEqualTo(expectedSharedHits()).isEqualTo(16 * 10);
      List<RequestMetrics> m = ((MeasuredLevel) r).metrics();
      assertThat(m.stream().mapToLong(x -> x.outputTokens()).sum()).isEqualTo(2 * 7 + 3);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class AlignedTestCases {
    @ConcurrencySweep(1)
    @Trace(value = "target/trace-tests/shared.jsonl", blockSize = 16)
    @ExactInputTokens
    void rows(SweepLevelResult r) throws IOException {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(SHARED.length);
      InputAlignment a = r.inputAlignment().orElseThrow();
      assertThat(a.method()).isEqualTo("POST /tokenize (vLLM / SGLang)");
      assertThat(a.requestedTokens()).as("each row its own").isZero();
      assertThat(a.checkedRequests()).isEqualTo(SHARED.length);
      assertThat(a.largestDeviation()).hasValue(0);
      assertThat(a.describe()).startsWith("each row's input_length in prompt tokens exact");
      // Request i is row i: usage.prompt_tokens is exactly its input_length, chat template included.
      List<RequestMetrics> byRow = ((MeasuredLevel) r).metrics().stream()
          .sorted(Comparator.comparingInt(m -> m.trace().requestIndex())).toList();
      ObjectMapper json = new ObjectMapper();
      for (int i = 0; i < SHARED.length; i++) {
        assertThat(byRow.get(i).promptTokens()).as("row %d", i).isEqualTo(json.readTree(SHARED[i]).get("input_length").asInt());
      }
      long expected = expectedAlignedHits(a.templateTokens());
      assertThat(expected).as("the rows share blocks").isGreaterThanOrEqualTo(16 * 8);
      assertThat(r.prefixCache().orElseThrow().cachedTokens()).isEqualTo(expected);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class AlignedDistinctTestCases {
    @ConcurrencySweep(1)
    @Trace(value = "target/trace-tests/distinct.jsonl", blockSize = 16)
    @ExactInputTokens
    void rows(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.inputAlignment().orElseThrow().largestDeviation()).hasValue(0);
      assertThat(r.requests()).extracting(RequestResult::promptTokens).containsOnly(48);
      assertThat(r.prefixCache().orElseThrow().cachedTokens()).isZero();
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class DistinctTestCases {
    @ConcurrencySweep(1)
    @Trace(value = "target/trace-tests/distinct.jsonl", blockSize = 16)
    void rows(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.prefixCache().orElseThrow().cachedTokens()).isZero();
      assertThat(r.prefixCache().orElseThrow().promptTokens()).isEqualTo(r.promptTokens());
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class UnderRateTestCases {
    @RateSweep(200)
    @Trace(value = "target/trace-tests/timed.jsonl", blockSize = 16)
    @Measurement(requests = 12)
    void rows(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(12);
      assertThat(r.label()).isEqualTo("rate=200/s");
      assertThat(r.prompts()).isEqualTo("mooncake:timed.jsonl (20 rows, 16-token blocks)");
      // Gamma arrivals at 200/s: 11 gaps of 5 ms on average, not the trace's 440 ms from row 0 to row 11.
      List<Long> due = ((MeasuredLevel) r).metrics().stream().map(m -> m.trace().scheduledNanos()).sorted().toList();
      assertThat(Duration.ofNanos(due.get(11) - due.get(0))).isLessThan(Duration.ofMillis(440));
      // What the trace feature reports of the level: its rows, and their lengths asked against the server's.
      FeatureSection section = new TraceFeature().level(null, (MeasuredLevel) r).orElseThrow();
      JsonNode json = section.json().orElseThrow();
      assertThat(json.path("file").asText()).endsWith("timed.jsonl");
      assertThat(json.path("trace_rows").asInt()).isEqualTo(20);
      assertThat(json.path("rows_sent").asInt()).isEqualTo(12);
      assertThat(json.path("first_line").asInt()).isEqualTo(1);
      assertThat(json.path("last_line").asInt()).isEqualTo(12);
      assertThat(json.has("time_scale")).isFalse();
      JsonNode in = json.path("input_tokens");
      assertThat(in.path("requested_as").asText()).isEqualTo("the rows' input_length");
      assertThat(in.path("requested").path("count").asInt()).isEqualTo(12);
      assertThat(in.path("requested").path("min").asInt()).isEqualTo(20);
      assertThat(in.path("requested").path("max").asInt()).isEqualTo(20);
      assertThat(in.path("actual").path("mean").asDouble()).isEqualTo(r.promptTokens() / 12.0);
      JsonNode out = json.path("output_tokens");
      assertThat(out.path("requested").path("mean").asDouble()).isEqualTo(2.0);
      assertThat(out.path("actual").path("histogram").path("counts")).isEqualTo(out.path("requested").path("histogram")
          .path("counts"));
      assertThat(section.console()).singleElement().asString()
          .startsWith("rate=200/s | trace: timed.jsonl 12 of 20 rows (lines 1-12); input tokens asked mean 20.0");
      assertThat(section.attachments()).extracting(FeatureSection.Attachment::name)
          .containsExactly("rate=200/s.trace-input-lengths", "rate=200/s.trace-output-lengths");
      assertThat(section.html().orElseThrow()).contains("<svg").contains("12 of 20 rows");
    }
  }

  static class BadTraceTestCases {
    @TraceReplay
    @Trace(value = "target/trace-tests/bad.jsonl", blockSize = 16)
    void replay(SweepLevelResult r) {}
  }

  static class NoTraceTestCases {
    @TraceReplay(timeScale = 2)
    void replay(SweepLevelResult r) {}
  }

  static class MissingFileTestCases {
    @TraceReplay
    @Trace("target/trace-tests/no-such-trace.jsonl")
    void replay(SweepLevelResult r) {}
  }

  static class TooManyRequestsTestCases {
    @ConcurrencySweep(2)
    @Trace(value = "target/trace-tests/timed.jsonl", blockSize = 16)
    @Measurement(requests = 21)
    void replay(SweepLevelResult r) {}
  }
}
