package dev.llmbench.agents;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * A level's requests in rows: by an agent's turn index, or by the prompt's length in tokens (buckets of powers of two
 * from 1,024): latency of the successful ones, the prompt they sent, and the share of it the server served from its
 * prefix cache where it said ({@code usage.prompt_tokens_details.cached_tokens}, llama-server's {@code timings.cache_n}).
 *
 * @param key          the turn (from 1) or the bucket's lowest prompt length (0 for below 1,024)
 * @param requests     the row's requests, failed ones included
 * @param failed       how many failed
 * @param ttftMs       first-token times, ms, sorted
 * @param tpotMs       time per output token, ms, sorted
 * @param promptTokens the mean prompt tokens
 * @param cachedShare  cached prompt tokens over prompt tokens of the requests whose server said; empty when none did
 */
record TurnRows(int key, int requests, int failed, double[] ttftMs, double[] tpotMs, double promptTokens,
    OptionalDouble cachedShare) {

  /** Rows by turn, from 1. */
  static List<TurnRows> byTurn(List<RequestTrace> traces) {
    return rows(traces, t -> t.turn() + 1);
  }

  /** Rows by prompt length: below 1,024 tokens, 1,024 to 2,047, 2,048 to 4,095, ... */
  static List<TurnRows> byContext(List<RequestTrace> traces) {
    return rows(traces, t -> bucket(RequestMetrics.of(t).promptTokens()));
  }

  static int bucket(int promptTokens) {
    return promptTokens < 1024 ? 0 : Integer.highestOneBit(promptTokens);
  }

  private static List<TurnRows> rows(List<RequestTrace> traces, ToIntFunction<RequestTrace> key) {
    TreeMap<Integer, List<RequestMetrics>> by = new TreeMap<>();
    for (RequestTrace t : traces) by.computeIfAbsent(key.applyAsInt(t), k -> new ArrayList<>()).add(RequestMetrics.of(t));
    List<TurnRows> out = new ArrayList<>();
    by.forEach((k, ms) -> out.add(row(k, ms)));
    return out;
  }

  private static TurnRows row(int key, List<RequestMetrics> ms) {
    List<Double> ttft = new ArrayList<>();
    List<Double> tpot = new ArrayList<>();
    int failed = 0;
    long prompt = 0;
    long reportedPrompt = 0;
    long cached = 0;
    for (RequestMetrics m : ms) {
      if (!m.succeeded()) {
        failed++;
        continue;
      }
      m.ttft().ifPresent(d -> ttft.add(d.toNanos() / 1e6));
      m.tpot().ifPresent(d -> tpot.add(d.toNanos() / 1e6));
      prompt += m.promptTokens();
      OptionalInt c = m.cachedPromptTokens();
      if (c.isPresent()) {
        cached += c.getAsInt();
        reportedPrompt += m.promptTokens();
      }
    }
    int ok = ms.size() - failed;
    return new TurnRows(key, ms.size(), failed, sorted(ttft), sorted(tpot), ok == 0 ? 0 : (double) prompt / ok,
        reportedPrompt == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) cached / reportedPrompt));
  }

  /** The {@code p}th percentile of sorted {@code values}, NaN when there are none. */
  static double percentile(double[] values, double p) {
    return values.length == 0 ? Double.NaN : Percentiles.of(values, p);
  }

  /** The row's label: {@code 3} for a turn, {@code 2K-4K} for a bucket. */
  String context() {
    return key == 0 ? "<1K" : (key / 1024) + "K-" + (key / 512) + "K";
  }

  private static double[] sorted(List<Double> values) {
    double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a;
  }
}
