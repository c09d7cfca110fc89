package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.sessions.Sessions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * One request of a level, as docs/metrics.md defines its figures. A failed request has only its
 * latency (to the failure) and queue time: none of its partial timings enter a distribution.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface RequestResult {

  /** {@return wall-clock time it was sent} */
  Instant startedAt();

  /** {@return how long it waited in the client for a concurrency slot (open loop with a cap), else about zero} */
  Duration queueTime();

  /** {@return the last {@code choices} chunk (or the whole body, or the failure) minus send} */
  Duration e2eLatency();

  /** {@return first chunk carrying a content or reasoning token, minus send} */
  Optional<Duration> ttft();

  /** {@return first chunk carrying content (not reasoning), minus send} */
  Optional<Duration> ttfo();

  /** {@return (E2E - TTFT) / (output tokens - 1); empty with fewer than 2 tokens} */
  Optional<Duration> tpot();

  /**
   * Gaps between successive token-bearing chunks (vLLM's ITL, AIPerf's inter-chunk latency).
   *
   * @return the gaps, in order
   */
  List<Duration> itls();

  /** {@return output tokens, reasoning included} */
  int outputTokens();

  /** {@return the reasoning tokens among the output tokens} */
  int reasoningTokens();

  /** {@return {@code usage.prompt_tokens}, or the client's estimate when the server sent none} */
  int promptTokens();

  /** {@return where the output-token count came from} */
  TokenSource tokenSource();

  /** {@return the server's {@code finish_reason}, when it sent one} */
  Optional<String> finishReason();

  /** {@return how the request failed; empty when it succeeded} */
  Optional<RequestFailure> failure();

  /** {@return whether the request succeeded} */
  default boolean succeeded() {
    return failure().isEmpty();
  }

  /** {@return which turn of its session the request was, from 1, when its level sent {@link Sessions}; else empty} */
  default OptionalInt turn() {
    return OptionalInt.empty();
  }

  /**
   * {@return the prompt tokens the server said it served from its prefix cache ({@code
   * usage.prompt_tokens_details.cached_tokens}, or llama-server's {@code timings.cache_n}); empty when it did not say}
   */
  default OptionalInt cachedPromptTokens() {
    return OptionalInt.empty();
  }

  /** {@return output tokens per second seen by this one user: 1 / TPOT, as AIPerf defines it} */
  default Optional<Double> outputTokensPerSecondPerUser() {
    return tpot().filter(d -> !d.isZero()).map(d -> 1e9 / d.toNanos());
  }

  /**
   * {@return why a structured-output check found the reply unparsed (tool-call arguments or a JSON answer that does not
   * parse, or misses its schema); empty when it parsed, or was not checked}
   */
  default Optional<String> unparsedBecause() {
    return Optional.empty();
  }

  /** {@return whether a structured-output check judged the reply (tools, or a JSON {@code response_format}, were asked for)} */
  default boolean replyChecked() {
    return false;
  }
}
