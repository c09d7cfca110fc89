package dev.llmbench.internal.vllm;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.result.LoadShape;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One {@code vllm bench serve} run as its result JSON says it, read by {@link VllmResultFiles#run}: the
 * summary's counts and figures under vLLM's names ({@link Metric#vllmName()}), its {@code mean_/median_/std_/pNN_*_ms}
 * statistics, and the per-request arrays it kept.
 *
 * @param file        the file's name, for messages and a level's source
 * @param load        the run's load ({@link VllmResultFiles#load}); empty for an infinite rate without a cap
 * @param runNumber   {@code vllm bench sweep}'s {@code run_number}, when it wrote one
 * @param durationSeconds {@code duration}, the benchmark's wall time in seconds
 * @param completed   {@code completed}: requests that succeeded
 * @param failed      {@code failed}: requests that did not (0 in files from before vLLM wrote it)
 * @param totalInputTokens  {@code total_input_tokens}, over the completed requests
 * @param totalOutputTokens {@code total_output_tokens}, over the completed requests
 * @param values      the single-value figures the file has a number for ({@code output_throughput}, {@code request_throughput},
 *                    {@code request_goodput}, ..), by metric
 * @param statistics  per latency metric, its statistics in milliseconds by name: {@code mean}, {@code median}, {@code std},
 *                    {@code p99}, {@code p99.9} (the {@code NN} as vLLM wrote it)
 * @param arrays      which per-request arrays the file has, each one entry per request
 * @param requests    one per entry of {@code latencies}, which vLLM keeps even without {@code --save-detailed}; empty
 *                    when the file has none
 */
@API(status = INTERNAL)
public record VllmRun(String file, Optional<LoadShape> load, OptionalInt runNumber, double durationSeconds, int completed,
    int failed, long totalInputTokens, long totalOutputTokens, Map<Metric, Double> values,
    Map<Metric, Map<String, Double>> statistics, Set<Array> arrays, List<Request> requests) {

  /** The per-request arrays of a result: all but {@code latencies} only with {@code --save-detailed}. */
  public enum Array {
    START_TIMES("start_times"), TTFTS("ttfts"), ITLS("itls"), INPUT_LENS("input_lens"), OUTPUT_LENS("output_lens"),
    ERRORS("errors");

    private final String field;

    Array(String field) {
      this.field = field;
    }

    /** {@return the field's name in the result JSON} */
    public String field() {
      return field;
    }
  }

  /**
   * One request, from the arrays at its index; a field whose array the file lacks reads as {@code NaN},
   * {@code -1}, {@code null} or an empty string.
   *
   * @param startSeconds   {@code start_times}: when it was sent, on the benchmark's {@code perf_counter} clock
   * @param ttftSeconds    {@code ttfts}: time to first token; 0 for a failure
   * @param itlSeconds     {@code itls}: the gaps after the first token; null without the array
   * @param latencySeconds {@code latencies}: send to last chunk; 0 for a failure
   * @param inputTokens    {@code input_lens}: the prompt's tokens
   * @param outputTokens   {@code output_lens}: output tokens; 0 for a failure
   * @param error          {@code errors}: empty when it succeeded
   * @param failed         {@link VllmResultFiles}'s rule for a failed request
   */
  public record Request(double startSeconds, double ttftSeconds, double[] itlSeconds, double latencySeconds, int inputTokens,
      int outputTokens, String error, boolean failed) {}

  /** Whether the file has every one of {@code needed}. */
  public boolean has(Array... needed) {
    return !requests.isEmpty() && arrays.containsAll(List.of(needed));
  }

  /** {@return the requests that succeeded, by the one rule} */
  public List<Request> succeeded() {
    return requests.stream().filter(r -> !r.failed()).toList();
  }

  /** {@return {@code metric}'s value in the summary, if the file has a number for it} */
  public OptionalDouble value(Metric metric) {
    Double v = values.get(metric);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }

  /** {@return output tokens per second: {@code output_throughput}, or {@code total_output_tokens / duration} without it} */
  public double outputThroughput() {
    return value(Metric.OUTPUT_THROUGHPUT).orElse(totalOutputTokens / durationSeconds);
  }
}
