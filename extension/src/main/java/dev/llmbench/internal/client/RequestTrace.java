package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.RequestFailure;
import dev.llmbench.Usage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Everything observed about one request: when it was meant to go, when it went, every chunk with its
 * arrival time, what the server said it counted, and how it failed if it did. Times are
 * {@link System#nanoTime()} values; only differences between them mean anything.
 *
 * @param scheduledNanos when the load generator wanted to send it (equal to {@code startNanos} unless it
 *                       waited for a concurrency slot)
 * @param startNanos     just before the request was written
 * @param startedAt      wall-clock time of {@code startNanos}, for exports
 * @param endNanos       arrival of the last {@code choices} chunk, the whole body, or the failure
 * @param chunks         every streamed message that carried {@code choices}, in arrival order
 * @param content        the whole content
 * @param reasoning      the whole reasoning
 * @param finishReason   the last {@code finish_reason}, or null
 * @param usage          the server's {@code usage}, or null when it sent none
 * @param serverTimings  llama.cpp's {@code timings} block, empty when absent
 * @param promptTokensEstimate the client's estimate of the prompt's tokens, used only when {@code usage} is missing
 * @param streamed       whether the answer was streamed
 * @param failure        why it failed, or null when it succeeded
 */
@API(status = INTERNAL)
public record RequestTrace(
    long scheduledNanos,
    long startNanos,
    Instant startedAt,
    long endNanos,
    List<Chunk> chunks,
    String content,
    String reasoning,
    String finishReason,
    Usage usage,
    Map<String, Double> serverTimings,
    int promptTokensEstimate,
    boolean streamed,
    RequestFailure failure) {

  public RequestTrace {
    chunks = List.copyOf(chunks);
    serverTimings = Map.copyOf(serverTimings);
  }

  public boolean succeeded() {
    return failure == null;
  }

  public Optional<Usage> serverUsage() {
    return Optional.ofNullable(usage);
  }

  /** Chunks that carried at least one token of content or reasoning. */
  public List<Chunk> tokenChunks() {
    return chunks.stream().filter(Chunk::hasToken).toList();
  }
}
