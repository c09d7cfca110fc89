package dev.llmbench.engine;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's own timing of each request, taken on the thread that writes its chunks, the moment it has a
 * chunk to write: time to first token from the request's arrival, each gap between token chunks, time per
 * output token ((last - first) / (tokens - 1)) and end-to-end latency. Published in {@code /metrics} as the
 * sums and counts of vLLM's histograms of the same names, so that a test can hold what the client measured
 * against what the engine did in the same run, on a machine that made both late. The last
 * {@value #KEPT} finished requests are also kept one by one ({@link EmbeddedLlmServer#finishedRequests()}).
 */
@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.INTERNAL)
public final class RequestTimings {

  static final int KEPT = 4096;

  /** One finished request as the engine timed it, in {@link System#nanoTime()} of this JVM. */
  public record Finished(long arrivalNanos, long firstTokenNanos, long endNanos, int tokens, long[] chunkGapsNanos) {
    public long ttftNanos() {
      return firstTokenNanos - arrivalNanos;
    }

    /** (last chunk - first chunk) / (tokens - 1), as vLLM and the client define TPOT; 0 for one token. */
    public long tpotNanos() {
      long decode = 0;
      for (long g : chunkGapsNanos) decode += g;
      return tokens > 1 ? decode / (tokens - 1) : 0;
    }
  }

  private final ArrayDeque<Finished> finished = new ArrayDeque<>();

  synchronized List<Finished> finished() {
    return List.copyOf(finished);
  }

  private synchronized void keep(Finished f) {
    if (finished.size() == KEPT) finished.removeFirst();
    finished.addLast(f);
  }

  private final LongAdder ttftNanos = new LongAdder();
  private final LongAdder ttftCount = new LongAdder();
  private final LongAdder itlNanos = new LongAdder();
  private final LongAdder itlCount = new LongAdder();
  private final LongAdder tpotNanos = new LongAdder();
  private final LongAdder tpotCount = new LongAdder();
  private final LongAdder e2eNanos = new LongAdder();
  private final LongAdder e2eCount = new LongAdder();

  Request start(long arrivalNanos) {
    return new Request(arrivalNanos);
  }

  /** One request's events, on the one thread that writes them. */
  final class Request {
    private final long arrival;
    private long first;
    private long last;
    private int chunks;
    private long[] gaps = new long[16];

    private Request(long arrival) {
      this.arrival = arrival;
    }

    /**
     * A token chunk (or the end) is about to be written, at {@code now}, with {@code tokens} generated so far.
     * The end is counted before the client can see it: a scrape right after the last request finds it.
     */
    void event(boolean end, long now, int tokens) {
      if (end) {
        e2eNanos.add(now - arrival);
        e2eCount.increment();
        if (chunks > 1 && tokens > 1) {
          tpotNanos.add((last - first) / (tokens - 1));
          tpotCount.increment();
        }
        if (chunks > 0) keep(new Finished(arrival, first, now, tokens, java.util.Arrays.copyOf(gaps, chunks - 1)));
        return;
      }
      if (chunks == 0) {
        first = now;
        ttftNanos.add(now - arrival);
        ttftCount.increment();
      } else {
        itlNanos.add(now - last);
        itlCount.increment();
        if (chunks - 1 == gaps.length) gaps = java.util.Arrays.copyOf(gaps, gaps.length * 2);
        gaps[chunks - 1] = now - last;
      }
      last = now;
      chunks++;
    }
  }

  /** The four histograms, as sum, count and the +Inf bucket. */
  void appendTo(StringBuilder text, String modelLabel) {
    histogram(text, "vllm:time_to_first_token_seconds", modelLabel, ttftNanos, ttftCount);
    histogram(text, "vllm:inter_token_latency_seconds", modelLabel, itlNanos, itlCount);
    histogram(text, "vllm:request_time_per_output_token_seconds", modelLabel, tpotNanos, tpotCount);
    histogram(text, "vllm:e2e_request_latency_seconds", modelLabel, e2eNanos, e2eCount);
  }

  private static void histogram(StringBuilder text, String name, String modelLabel, LongAdder nanos, LongAdder count) {
    String labels = modelLabel.substring(1, modelLabel.length() - 1);
    long n = count.sum();
    text.append("# TYPE ").append(name).append(" histogram\n")
        .append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(n).append('\n')
        .append(name).append("_sum").append(modelLabel).append(' ').append(nanos.sum() / 1e9).append('\n')
        .append(name).append("_count").append(modelLabel).append(' ').append(n).append('\n');
  }
}
