package dev.llmbench.sessions;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.client.RequestResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * A level's figures by turn index: latency (TTFT, TPOT, ITL, end to end) of the turn's successful requests, the
 * history each turn sent (its prompt tokens) and the prompt tokens the server served from its prefix cache, where
 * it said so ({@code usage.prompt_tokens_details.cached_tokens}, or llama-server's {@code timings.cache_n}).
 *
 * @param turn         1-based
 * @param requests     the turn's requests, failed ones included
 * @param failed       how many of them failed
 * @param ttftMs       first-token times of the successful ones, milliseconds, sorted
 * @param tpotMs       time per output token, milliseconds, sorted
 * @param itlMs        every gap between token chunks, milliseconds, sorted
 * @param e2eMs        end-to-end latencies, milliseconds, sorted
 * @param ttfoMs       first-content times (after any reasoning), milliseconds, sorted
 * @param outputTokens mean output tokens of the successful ones
 * @param promptTokens mean prompt tokens (the history, and the new user turn)
 * @param cachedTokens mean prompt tokens served from the cache, of the requests whose server said; empty when none did
 * @param cachedShare  cached prompt tokens over prompt tokens of the requests whose server said; empty when none did
 */
@API(status = INTERNAL)
public record TurnFigures(int turn, int requests, int failed, double[] ttftMs, double[] tpotMs, double[] itlMs,
    double[] e2eMs, double[] ttfoMs, double outputTokens, double promptTokens, OptionalDouble cachedTokens, OptionalDouble cachedShare) {

  /**
   * Each turn's figures, in turn order; requests that were not a session's turn are left out.
   *
   * @param requests a level's requests
   * @return the figures of each turn
   */
  public static List<TurnFigures> of(List<? extends RequestResult> requests) {
    TreeMap<Integer, List<RequestResult>> byTurn = new TreeMap<>();
    for (RequestResult m : requests) {
      if (m.turn().isPresent()) byTurn.computeIfAbsent(m.turn().getAsInt(), t -> new ArrayList<>()).add(m);
    }
    List<TurnFigures> out = new ArrayList<>();
    byTurn.forEach((turn, ms) -> out.add(figures(turn, ms)));
    return List.copyOf(out);
  }

  private static TurnFigures figures(int turn, List<RequestResult> ms) {
    List<Double> ttft = new ArrayList<>();
    List<Double> tpot = new ArrayList<>();
    List<Double> itl = new ArrayList<>();
    List<Double> e2e = new ArrayList<>();
    List<Double> ttfo = new ArrayList<>();
    long output = 0;
    int failed = 0;
    long prompt = 0;
    long reportedPrompt = 0;
    long cached = 0;
    int reported = 0;
    for (RequestResult m : ms) {
      if (!m.succeeded()) {
        failed++;
        continue;
      }
      m.ttft().ifPresent(d -> ttft.add(millis(d)));
      m.tpot().ifPresent(d -> tpot.add(millis(d)));
      m.itls().forEach(d -> itl.add(millis(d)));
      e2e.add(millis(m.e2eLatency()));
      m.ttfo().ifPresent(d -> ttfo.add(millis(d)));
      output += m.outputTokens();
      prompt += m.promptTokens();
      java.util.OptionalInt c = m.cachedPromptTokens();
      if (c.isPresent()) {
        reported++;
        cached += c.getAsInt();
        reportedPrompt += m.promptTokens();
      }
    }
    int ok = ms.size() - failed;
    return new TurnFigures(turn, ms.size(), failed, sorted(ttft), sorted(tpot), sorted(itl), sorted(e2e), sorted(ttfo),
        ok == 0 ? 0 : (double) output / ok, ok == 0 ? 0 : (double) prompt / ok, reported == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) cached / reported),
        reported == 0 || reportedPrompt == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) cached / reportedPrompt));
  }

  /** The {@code p}-th percentile of sorted {@code values}, NaN when there are none. */
  static double percentile(double[] values, double p) {
    return values.length == 0 ? Double.NaN : Percentiles.of(values, p);
  }

  private static double millis(Duration d) {
    return d.toNanos() / 1e6;
  }

  private static double[] sorted(List<Double> values) {
    double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
    java.util.Arrays.sort(a);
    return a;
  }
}
