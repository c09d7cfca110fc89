package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.trace.Trace;
import dev.llmbench.trace.TraceReplay;
import dev.llmbench.workload.ExactInputTokens;

/**
 * Replaying recorded traffic: a Mooncake-style trace (one request per line: {@code timestamp} in ms,
 * {@code input_length}, {@code output_length}, {@code hash_ids} naming blocks of tokens) sent at its own
 * timestamps, as recorded and four times faster, then the same rows under a fixed concurrency, and with blocks
 * aligned to exactly their length in the server's tokens ({@code @ExactInputTokens}). Equal
 * {@code hash_ids} are byte-equal blocks, so the server's prefix cache sees the reuse the trace had: here 48
 * chat turns over 6.5 s, each conversation re-sending its history after one of four system prompts, in blocks
 * of 64 tokens so that it runs in seconds (Mooncake's own traces use 512, the default). Against the embedded
 * "gqa-dense" profile; point it at your server with {@code -Dllmbench.base-url=...} and at your
 * own trace by changing the path (AIPerf {@code --custom-dataset-type mooncake_trace} and guidellm
 * {@code --data kind=mooncake} files read as they are).
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
@Trace(value = "src/test/resources/traces/chat-trace.jsonl", blockSize = 64)
class TraceReplayBenchmarkTest {

  @TraceReplay(timeScale = {1, 4})
  @Slo(ttft = "1s", percentile = 90)
  void replaysTheTraceOnItsOwnClock(SweepLevelResult level) {
    assertThat(level).hasNoErrors().meetsSlo();
    assertThat(level.requestCount()).isEqualTo(48); // every row, once
    // The client kept the trace's clock: the median request went out far closer to its timestamp than the
    // server took to answer it (the lag's p50, p99 and max are in the report; a late client is a finding).
    assertThat(level).scheduleLag().p50().isLessThan(level.ttft().percentile(50).orElseThrow());
    // Conversations re-send their history: most prompt tokens come from the server's prefix cache.
    assertThat(level.prefixCache()).hasValueSatisfying(cache -> assertThat(cache.hitRate()).isGreaterThan(0.5));
  }

  @ConcurrencySweep({4, 8})
  void theSameRowsUnderAConcurrency(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    assertThat(level.requestCount()).isEqualTo(48);
  }

  @ConcurrencySweep(4)
  @ExactInputTokens // aligned to the server's own tokenizer before load (its tokenize route, else probe requests' usage)
  void blocksOfExactlyTheirTokens(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    // Each full block is exactly 64 tokens on the server, each row exactly its input_length, chat template included.
    assertThat(level.inputAlignment()).hasValueSatisfying(a -> assertThat(a.largestDeviation()).hasValue(0));
    assertThat(level.prefixCache()).hasValueSatisfying(cache -> assertThat(cache.hitRate()).isGreaterThan(0.5));
  }
}
