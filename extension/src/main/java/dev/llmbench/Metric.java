package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.Distribution;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.apiguardian.api.API;

/**
 * The figures a level reports, each with one key, one label and one unit, and its name in the tools our
 * users compare with. The JSON, CSV, console table, HTML, charts, messages and assertions all name a
 * figure as its entry here says. Latencies are distributions; the others are single values.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Metric {
  /** Output tokens per second over the level's window (vLLM's {@code output_throughput}). */
  OUTPUT_THROUGHPUT("output_throughput", "output throughput", "tok/s", "output_throughput",
      "output_token_throughput", value(r -> r.outputThroughput().perSecond())),
  /** Prompt and output tokens per second over the window (vLLM's {@code total_token_throughput}). */
  TOTAL_TOKEN_THROUGHPUT("total_token_throughput", "total token throughput", "tok/s", "total_token_throughput",
      null, value(r -> r.totalTokenThroughput().perSecond())),
  /** Completed requests per second over the window (vLLM's {@code request_throughput}). */
  REQUEST_THROUGHPUT("request_throughput", "request throughput", "req/s", "request_throughput",
      "request_throughput", value(r -> r.requestThroughput().perSecond())),
  /** Requests per second that met every SLO (vLLM's {@code request_goodput}). */
  GOODPUT("request_goodput", "goodput", "req/s", "request_goodput", "goodput", value(r -> r.goodput().perSecond())),
  /** The most output tokens in any one second of the window (vLLM's {@code max_output_tokens_per_s}). */
  PEAK_OUTPUT_THROUGHPUT("max_output_tokens_per_s", "peak output throughput", "tok/s", "max_output_tokens_per_s",
      null, value(r -> r.peakOutputThroughput().perSecond())),
  /** The share of all sent requests that met every SLO, 0..1. */
  SLO_ATTAINMENT("slo_attainment", "SLO attainment", "fraction", null, null, value(SweepLevelResult::sloAttainment)),
  /** Inputs per second over the window: an embeddings level's texts; for generation, one a successful request. */
  INPUT_THROUGHPUT("input_throughput", "input throughput", "inputs/s", null, null, value(r -> r.inputThroughput().perSecond())),
  /**
   * The share of checked replies (tool calls, JSON answers) that did not parse or match their schema, 0..1 (AIPerf
   * reports its complement as tool-calling accuracy).
   */
  UNPARSED_RATE("unparsed_rate", "unparsed rate", "fraction", null, null, value(SweepLevelResult::unparsedRate)),
  /** The share of requests that failed, 0..1. */
  ERROR_RATE("error_rate", "error rate", "fraction", null, null, value(SweepLevelResult::errorRate)),
  /** Time to first token, content or reasoning. */
  TTFT("ttft", "TTFT", "ms", "ttft", "time_to_first_token", latency(SweepLevelResult::ttft)),
  /** Time to the first chunk carrying a tool call's name or arguments. */
  TOOL_CALL_TTFT("tool_call_ttft", "time to first tool call", "ms", null, null, latency(SweepLevelResult::toolCallTtft)),
  /** Time to first output token, reasoning not counted. */
  TTFO("ttfo", "TTFO", "ms", null, "time_to_first_output_token", latency(SweepLevelResult::ttfo)),
  /** Time per output token after the first. */
  TPOT("tpot", "TPOT", "ms", "tpot", "inter_token_latency", latency(SweepLevelResult::tpot)),
  /** Inter-token latency: the gaps between successive token-bearing chunks. */
  ITL("itl", "ITL", "ms", "itl", "inter_chunk_latency", latency(SweepLevelResult::itl)),
  /**
   * ITL per token: each gap between token-bearing chunks over the tokens the later chunk carried, once a token (as vLLM
   * PR #28183 proposed); absent where a chunk's tokens are not known. AIPerf's corrected ITL is {@link #TPOT}.
   */
  ITL_PER_TOKEN("itl_per_token", "ITL per token", "ms", null, null, latency(SweepLevelResult::itlPerToken)),
  /** End-to-end latency: from sending a request to the end of its response. */
  E2E_LATENCY("e2el", "E2E latency", "ms", "e2el", "request_latency", latency(SweepLevelResult::e2eLatency)),
  /** Time a request waited before it was sent, under an open loop's cap. */
  QUEUE_TIME("queue", "queue time", "ms", null, null, latency(SweepLevelResult::queueTime));

  /** How a metric is read off a level: one of the two is null. */
  private record Accessor(ToDoubleFunction<SweepLevelResult> value, Function<SweepLevelResult, Distribution> distribution) {}

  private static Accessor value(ToDoubleFunction<SweepLevelResult> value) {
    return new Accessor(value, null);
  }

  private static Accessor latency(Function<SweepLevelResult, Distribution> distribution) {
    return new Accessor(null, distribution);
  }

  private final String key;
  private final String label;
  private final String unit;
  private final String vllmName;
  private final String aiperfName;
  private final Accessor accessor;

  Metric(String key, String label, String unit, String vllmName, String aiperfName, Accessor accessor) {
    this.key = key;
    this.label = label;
    this.unit = unit;
    this.vllmName = vllmName;
    this.aiperfName = aiperfName;
    this.accessor = accessor;
  }

  /** {@return the key in LLMBench's files: {@code output_throughput}, {@code ttft}, ..} (vLLM's where it has one). */
  public String key() {
    return key;
  }

  /** {@return how people read it: {@code output throughput}, {@code TTFT}} */
  public String label() {
    return label;
  }

  /** {@return {@code tok/s}, {@code req/s}, {@code ms} (latencies as files report them) or {@code fraction}} */
  public String unit() {
    return unit;
  }

  /** {@return the label with its unit, as tables, charts and messages show it: {@code output throughput (tok/s)}} */
  public String heading() {
    return label + " (" + unit + ")";
  }

  /** {@return the name in {@code vllm bench serve}'s result JSON, if it has one} */
  public Optional<String> vllmName() {
    return Optional.ofNullable(vllmName);
  }

  /** {@return the name in AIPerf's exports, if it has one} */
  public Optional<String> aiperfName() {
    return Optional.ofNullable(aiperfName);
  }

  /**
   * {@return whether the figure is a latency distribution ({@link #distributionOf}) rather than one value ({@link #valueOf})}
   */
  public boolean isLatency() {
    return accessor.distribution() != null;
  }

  /**
   * {@return the level's value of a throughput or fraction metric}
   *
   * @param level a measured level
   */
  public double valueOf(SweepLevelResult level) {
    if (accessor.value() == null) throw new IllegalArgumentException(this + " is a latency distribution: use distributionOf");
    return accessor.value().applyAsDouble(level);
  }

  /**
   * {@return the level's distribution of a latency metric}
   *
   * @param level a measured level
   */
  public Distribution distributionOf(SweepLevelResult level) {
    if (accessor.distribution() == null) throw new IllegalArgumentException(this + " is a single value: use valueOf");
    return accessor.distribution().apply(level);
  }
}
