package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.RequestResult;
import dev.llmbench.client.TokenSource;
import dev.llmbench.internal.client.RequestTrace;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The metrics of one request, derived from its trace as docs/metrics.md defines them.
 *
 * @param trace           what was observed
 * @param queueTime       how long it waited in our own client for a concurrency slot
 * @param e2eLatency      last {@code choices} chunk (or the whole body, or the failure) minus send
 * @param ttft            first chunk carrying a content or reasoning token, minus send; empty if none came
 * @param ttfo            first chunk carrying content (not reasoning), minus send
 * @param tpot            (e2e - ttft) / (output tokens - tokens of the first chunk), the first chunk's tokens from
 *                        per-chunk usage, else 1; empty when no token came after the first chunk
 * @param outputTokens    output tokens, reasoning included
 * @param reasoningTokens reasoning tokens
 * @param tokenSource     where {@code outputTokens} came from
 * @param promptTokens    {@code usage.prompt_tokens}, or the client's estimate when absent
 * @param chunkTokenMismatch true when {@code usage} and the chunk count differ by more than 10%
 */
@API(status = INTERNAL)
public record RequestMetrics(
    RequestTrace trace,
    Duration queueTime,
    Duration e2eLatency,
    Optional<Duration> ttft,
    Optional<Duration> ttfo,
    Optional<Duration> tpot,
    int outputTokens,
    int reasoningTokens,
    TokenSource tokenSource,
    int promptTokens,
    boolean chunkTokenMismatch) implements RequestResult {

  /** How far the chunk count may stray from {@code usage} before a warning (AIPerf uses 10%). */
  public static final double MISMATCH_TOLERANCE = 0.10;

  public static RequestMetrics of(RequestTrace t) {
    long start = t.startNanos();
    int chunkCount = t.tokenChunks();
    Optional<Duration> ttft = chunkCount == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(t.ttftNanos()));
    Optional<Duration> ttfo = t.firstContentIndex() < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(t.ttfoNanos()));
    Integer usageOut = t.serverUsage().map(u -> u.completionTokens()).orElse(null);
    int output = usageOut != null ? usageOut : chunkCount;
    TokenSource source = usageOut != null ? TokenSource.SERVER_USAGE : TokenSource.CHUNK_COUNT_ESTIMATE;
    Integer usageReasoning = t.serverUsage().map(u -> u.reasoningTokens()).orElse(null);
    int reasoning = usageReasoning != null ? usageReasoning : t.reasoningChunks();
    Integer usagePrompt = t.serverUsage().map(u -> u.promptTokens()).orElse(null);
    int prompt = usagePrompt != null ? usagePrompt : t.promptTokensEstimate();
    boolean mismatch = usageOut != null && t.streamed() && usageOut > 0
        && Math.abs(usageOut - chunkCount) > MISMATCH_TOLERANCE * usageOut;
    Duration e2e = Duration.ofNanos(t.endNanos() - start);
    // The decode time after the first token chunk is spread over the tokens after it: one in the first chunk
    // unless the server's per-chunk usage said how many it carried (a prefill that bundles several, speculation).
    int first = t.firstChunkTokens() > 0 ? t.firstChunkTokens() : 1;
    Optional<Duration> tpot = ttft.isPresent() && output > first
        ? Optional.of(e2e.minus(ttft.get()).dividedBy(output - first))
        : Optional.empty();
    if (!t.succeeded()) {
      // A failed request counts in the window only; none of its partial timings enter a distribution.
      return new RequestMetrics(t, Duration.ofNanos(start - t.scheduledNanos()), e2e, Optional.empty(),
          Optional.empty(), Optional.empty(), 0, 0, source, prompt, false);
    }
    return new RequestMetrics(t, Duration.ofNanos(start - t.scheduledNanos()), e2e, ttft, ttfo, tpot,
        output, reasoning, source, prompt, mismatch);
  }

  /**
   * Gaps between successive token-bearing chunks (vLLM's ITL, AIPerf's ICL), made on each call from the
   * trace's arrival times: a level holds no per-token objects. Empty for a failed request.
   */
  @Override
  public List<Duration> itls() {
    if (!trace.succeeded() || trace.tokenChunks() < 2) return List.of();
    List<Duration> gaps = new ArrayList<>(trace.tokenChunks() - 1);
    trace.forEachItlNanos(gap -> gaps.add(Duration.ofNanos(gap)));
    return gaps;
  }

  /**
   * ITL per token: each gap after the first token chunk over the tokens its chunk carried, once for each of those tokens
   * (as vLLM PR #28183 proposed from {@code continuous_usage_stats}), so that their mean is the decode time per token
   * after the first chunk. Empty for a failed request, or when the tokens of some chunk are not known
   * ({@link RequestTrace#laterChunkTokens}).
   */
  public List<Duration> itlsPerToken() {
    List<Duration> out = new ArrayList<>();
    forEachItlPerTokenNanos(gap -> out.add(Duration.ofNanos(Math.round(gap))));
    return out;
  }

  /** Gives each value of {@link #itlsPerToken()}, in nanoseconds, without boxing; returns how many. */
  public int forEachItlPerTokenNanos(java.util.function.DoubleConsumer value) {
    int[] tokens = perTokenKnown();
    if (tokens == null) return 0;
    int n = 0;
    for (int i = 0; i < tokens.length; i++) {
      double each = (double) (trace.tokenNanos(i + 1) - trace.tokenNanos(i)) / tokens[i];
      for (int k = 0; k < tokens[i]; k++) value.accept(each);
      n += tokens[i];
    }
    return n;
  }

  /**
   * Whether this successful request of several token chunks leaves its ITL per token out: the tokens of some chunk are
   * not known (no per-chunk usage, and more tokens after the first chunk than chunks).
   */
  public boolean itlPerTokenUnknown() {
    return trace.succeeded() && trace.tokenChunks() >= 2 && trace.laterChunkTokens() == null;
  }

  private int[] perTokenKnown() {
    return trace.succeeded() ? trace.laterChunkTokens() : null;
  }

  @Override
  public Instant startedAt() {
    return trace.startedAt();
  }

  @Override
  public Optional<String> finishReason() {
    return Optional.ofNullable(trace.finishReason());
  }

  @Override
  public Optional<RequestFailure> failure() {
    return Optional.ofNullable(trace.failure());
  }

  @Override
  public Optional<String> unparsedBecause() {
    return trace.replyUnparsed() ? trace.replyProblem() : Optional.empty();
  }

  @Override
  public boolean replyChecked() {
    return trace.replyChecked();
  }

  @Override
  public java.util.OptionalInt turn() {
    return trace.turn() < 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(trace.turn() + 1);
  }

  @Override
  public java.util.OptionalInt cachedPromptTokens() {
    if (trace.cachedTokens() >= 0) return java.util.OptionalInt.of(trace.cachedTokens());
    Double n = trace.serverTimings().get("cache_n");
    return n == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of((int) Math.round(n));
  }

  @Override
  public boolean succeeded() {
    return trace.succeeded();
  }
}
