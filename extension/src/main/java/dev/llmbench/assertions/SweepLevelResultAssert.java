package dev.llmbench.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.DecodeRates;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import dev.llmbench.server.ServerFigures;
import dev.llmbench.server.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.AbstractDoubleAssert;
import org.assertj.core.api.Assertions;

/**
 * Assertions on one level. Each figure has an assertion named as its {@link Metric}: throughputs
 * ({@link #outputThroughput()}, ...) return AssertJ number assertions, latencies ({@link #ttft()},
 * {@link #e2eLatency()}, ...) a {@link DistributionAssert} to pick a statistic from. Failures name the
 * level, the figure, the actual and the required value: {@code [C=8: output throughput (tok/s)]
 * Expecting actual: 212.4 to be greater than: 250.0}. Checks of several things at once
 * ({@link #hasNoErrors()}, {@link #meetsSlo()}) list every violation. Ratios are fractions (0..1).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SweepLevelResultAssert extends AbstractAssert<SweepLevelResultAssert, SweepLevelResult> {

  private final boolean allowFewSamples;

  SweepLevelResultAssert(SweepLevelResult actual, boolean allowFewSamples) {
    super(actual, SweepLevelResultAssert.class);
    this.allowFewSamples = allowFewSamples;
  }

  /**
   * Lets percentile assertions use a percentile that rests on fewer samples than it needs.
   *
   * @return a copy of this assertion that allows them
   */
  public SweepLevelResultAssert allowingFewSamples() {
    return new SweepLevelResultAssert(actual, true);
  }

  // ----- failures and objectives

  /**
   * Every request succeeded; otherwise lists each error type with its count and an example.
   *
   * @return this assertion
   */
  public SweepLevelResultAssert hasNoErrors() {
    isNotNull();
    if (actual.failed() > 0) {
      failWithMessage("%s: expected no failed requests but %d of %d failed:%n%s", actual.label(), actual.failed(),
          actual.requestCount(), errorLines());
    }
    return this;
  }

  /**
   * The share of failed requests is at most {@code maxFraction} (0.01 for 1%).
   *
   * @return this assertion
   * @param maxFraction the largest share allowed, 0..1
   */
  public SweepLevelResultAssert hasErrorRateAtMost(double maxFraction) {
    isNotNull();
    if (maxFraction < 0 || maxFraction > 1) {
      throw new IllegalArgumentException("the error rate is a fraction from 0 to 1 (0.01 for 1%), was " + maxFraction);
    }
    if (actual.errorRate() > maxFraction) {
      failWithMessage("%s: expected an error rate of at most %s but it was %s (%d of %d failed):%n%s", actual.label(),
          Formats.percent(maxFraction), Formats.percent(actual.errorRate()), actual.failed(), actual.requestCount(),
          errorLines());
    }
    return this;
  }

  /**
   * At most {@code maxFraction} of the checked replies (tool calls, JSON answers) were unparsed: not JSON, or not
   * matching their schema ({@link Metric#UNPARSED_RATE}); fails as well when no reply was checked, since then the
   * sweep asked for no tools or JSON and the assertion would prove nothing. Lists each distinct reason with its count.
   *
   * @return this assertion
   * @param maxFraction the largest share allowed, 0..1
   */
  public SweepLevelResultAssert hasUnparsedRateAtMost(double maxFraction) {
    isNotNull();
    if (maxFraction < 0 || maxFraction > 1) {
      throw new IllegalArgumentException("the unparsed rate is a fraction from 0 to 1 (0.01 for 1%), was " + maxFraction);
    }
    if (actual.checkedReplies() == 0) {
      failWithMessage("%s: expected an unparsed rate of at most %s but no reply was checked (%d succeeded): ask for tools "
          + "(@ToolCalls, a row's \"tools\") or a JSON answer (@StructuredOutput, a row's \"response_format\")", actual.label(),
          Formats.percent(maxFraction), actual.succeeded());
    }
    if (actual.unparsedRate() > maxFraction) {
      Map<String, Long> reasons = new java.util.LinkedHashMap<>();
      for (RequestResult r : actual.requests()) r.unparsedBecause().ifPresent(why -> reasons.merge(why, 1L, Long::sum));
      List<String> lines = new ArrayList<>();
      reasons.entrySet().stream().limit(5).forEach(e -> lines.add("  - " + e.getValue() + " x " + e.getKey()));
      if (reasons.size() > 5) lines.add("  - and " + (reasons.size() - 5) + " other reason(s)");
      failWithMessage("%s: expected an unparsed rate of at most %s but it was %s (%d of %d checked replies):%n%s", actual.label(),
          Formats.percent(maxFraction), Formats.percent(actual.unparsedRate()), actual.unparsedReplies(),
          actual.checkedReplies(), String.join("\n", lines).replace("%", "%%"));
    }
    return this;
  }

  private String errorLines() {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Long> e : actual.errorsByType().entrySet()) {
      String example = actual.requests().stream().flatMap(r -> r.failure().stream())
          .filter(f -> f.key().equals(e.getKey())).findFirst().map(RequestFailure::message).orElse("");
      lines.add("  - " + e.getKey() + ": " + e.getValue() + " (e.g. " + example + ")");
    }
    return String.join("\n", lines);
  }

  /**
   * Every objective of the level's {@link Slo} holds at its percentile, and at least that share of requests
   * met all of them; every violation is listed.
   *
   * @return this assertion
   */
  public SweepLevelResultAssert meetsSlo() {
    return meetsSlo(actual.serviceLevels());
  }

  /**
   * Every objective of {@code slo} holds at its percentile, and at least that share of requests met all of them;
   * every violation is listed.
   *
   * @param slo the objectives, in place of the level's {@link Slo}
   * @return this assertion
   */
  public SweepLevelResultAssert meetsSlo(ServiceLevels slo) {
    isNotNull();
    if (slo.isEmpty()) failWithMessage("%s: no SLO to check; declare @Slo on the method or class, or pass ServiceLevels", actual.label());
    double p = slo.percentile();
    List<String> violations = new ArrayList<>();
    slo.ttft().ifPresent(max -> check(violations, Metric.TTFT, p, max));
    slo.tpot().ifPresent(max -> check(violations, Metric.TPOT, p, max));
    slo.e2eLatency().ifPresent(max -> check(violations, Metric.E2E_LATENCY, p, max));
    double required = p / 100;
    if (actual.sloAttainment() < required) {
      violations.add(String.format(Locale.ROOT, "SLO attainment %s is below the required %s (%d of %d requests met every objective)",
          Formats.percent(actual.sloAttainment()), Formats.percent(required),
          Math.round(actual.sloAttainment() * actual.requestCount()), actual.requestCount()));
    }
    if (!violations.isEmpty()) {
      // A level that stopped early says why, so that its smaller count is not read as a fault of the run.
      String early = actual.stopReason() != StopReason.SLO_UNREACHABLE ? "" : actual.warnings().stream()
          .filter(w -> w.startsWith("stopped early")).findFirst().map(w -> "%n  (" + w.replace("%", "%%") + ")").orElse("");
      failWithMessage("%s: %d SLO violation(s) of [%s]:%n  - %s" + early, actual.label(), violations.size(), slo,
          String.join("\n  - ", violations));
    }
    return this;
  }

  private void check(List<String> violations, Metric metric, double p, Duration max) {
    Distribution d = metric.distributionOf(actual);
    if (d.isEmpty()) {
      violations.add(metric.label() + ": no successful request to measure");
    } else if (!d.supports(p) && !allowFewSamples) {
      violations.add(DistributionAssert.tooFew(metric, d, p));
    } else {
      Duration v = d.percentile(p).orElseThrow();
      if (v.compareTo(max) > 0) {
        violations.add(metric.label() + " " + Formats.percentile(p) + " is " + Formats.duration(v) + ", above the required "
            + Formats.duration(max));
      }
    }
  }

  /**
   * The level says none of the given kinds about itself ({@link SweepLevelResult#findings()}: a cold start,
   * instability, ramp and drain, a saturated client); each one it does say is listed with its evidence.
   *
   * @return this assertion
   * @param kinds the kinds that must not be said
   */
  public SweepLevelResultAssert hasNoFindings(FindingKind... kinds) {
    isNotNull();
    if (kinds.length == 0) throw new IllegalArgumentException("name the kinds, e.g. hasNoFindings(FindingKind.COLD_START)");
    List<FindingKind> wanted = List.of(kinds);
    List<Finding> found = actual.findings().stream().filter(f -> wanted.contains(f.kind())).toList();
    if (!found.isEmpty()) {
      failWithMessage("%s: expected no finding of kind %s but found %d:%n  - %s", actual.label(), wanted, found.size(),
          String.join("\n  - ", found.stream().map(f -> f.text().replace("\n", "\n    ")).toList()));
    }
    return this;
  }

  // ----- throughputs and fractions

  /** {@return an assertion on output throughput, in tokens per second} */
  public AbstractDoubleAssert<?> outputThroughput() {
    return value(Metric.OUTPUT_THROUGHPUT);
  }

  /** {@return the lower bound of the 95% interval of output throughput: a gate on it does not flake on noise} */
  public AbstractDoubleAssert<?> outputThroughputLowerBound() {
    isNotNull();
    return number(Metric.OUTPUT_THROUGHPUT.label() + " 95% CI lower bound (" + Metric.OUTPUT_THROUGHPUT.unit() + ")",
        actual.outputThroughputCi().lower());
  }

  /** {@return an assertion on total token throughput, in tokens per second} */
  public AbstractDoubleAssert<?> totalTokenThroughput() {
    return value(Metric.TOTAL_TOKEN_THROUGHPUT);
  }

  /** {@return an assertion on request throughput, in requests per second} */
  public AbstractDoubleAssert<?> requestThroughput() {
    return value(Metric.REQUEST_THROUGHPUT);
  }

  /** {@return an assertion on goodput, in requests per second} */
  public AbstractDoubleAssert<?> goodput() {
    return value(Metric.GOODPUT);
  }

  /** {@return an assertion on peak output throughput, in tokens per second} */
  public AbstractDoubleAssert<?> peakOutputThroughput() {
    return value(Metric.PEAK_OUTPUT_THROUGHPUT);
  }

  /** {@return an assertion on input throughput, in inputs per second (an embeddings level's texts)} */
  public AbstractDoubleAssert<?> inputThroughput() {
    return value(Metric.INPUT_THROUGHPUT);
  }

  /** {@return the unparsed rate, a fraction (0..1) of the checked replies; see {@link #hasUnparsedRateAtMost}} */
  public AbstractDoubleAssert<?> unparsedRate() {
    return value(Metric.UNPARSED_RATE);
  }

  /** {@return SLO attainment, a fraction (0..1)} */
  public AbstractDoubleAssert<?> sloAttainment() {
    return value(Metric.SLO_ATTAINMENT);
  }

  /**
   * {@return any single-valued metric, in its unit}
   *
   * @param metric a single-valued metric, such as {@link Metric#GOODPUT}
   */
  public AbstractDoubleAssert<?> value(Metric metric) {
    isNotNull();
    return number(metric.heading(), metric.valueOf(actual));
  }

  private AbstractDoubleAssert<?> number(String what, double value) {
    return Assertions.assertThat(value).as("%s: %s", actual.label(), what);
  }

  // ----- latencies

  /** {@return assertions on TTFT's distribution} */
  public DistributionAssert ttft() {
    return latency(Metric.TTFT);
  }

  /** {@return assertions on TTFO's distribution} */
  public DistributionAssert ttfo() {
    return latency(Metric.TTFO);
  }

  /** {@return assertions on TPOT's distribution} */
  public DistributionAssert tpot() {
    return latency(Metric.TPOT);
  }

  /** {@return assertions on ITL's distribution} */
  public DistributionAssert itl() {
    return latency(Metric.ITL);
  }

  /** {@return assertions on the distribution of ITL per token (each chunk's gap over the tokens it carried)} */
  public DistributionAssert itlPerToken() {
    return latency(Metric.ITL_PER_TOKEN);
  }

  /** {@return assertions on E2E latency's distribution} */
  public DistributionAssert e2eLatency() {
    return latency(Metric.E2E_LATENCY);
  }

  /** {@return assertions on the distribution of the time to the first tool-call chunk} */
  public DistributionAssert toolCallTtft() {
    return latency(Metric.TOOL_CALL_TTFT);
  }

  /** {@return assertions on queue time's distribution} */
  public DistributionAssert queueTime() {
    return latency(Metric.QUEUE_TIME);
  }

  /**
   * {@return an open loop's schedule lag, each request's send minus when it was due ({@link SweepLevelResult#scheduleLag()})}
   * It is the queue time, under the name a trace replay gives it. Fails on a closed loop, which has no schedule.
   */
  public DistributionAssert scheduleLag() {
    isNotNull();
    if (actual.scheduleLag().isEmpty()) {
      failWithMessage("[%s] has no schedule lag: it is a closed loop (%s), whose requests have no due times", actual.label(),
          actual.load());
    }
    return latency(Metric.QUEUE_TIME);
  }

  /**
   * {@return any latency metric}
   *
   * @param metric a latency metric, such as {@link Metric#TTFT}
   */
  public DistributionAssert latency(Metric metric) {
    isNotNull();
    return new DistributionAssert(actual, metric, allowFewSamples);
  }

  // ----- server side

  /**
   * The server's counters agreed with the client's token counts (no cross-check warning).
   *
   * @return this assertion
   */
  public SweepLevelResultAssert hasServerTokenCountsMatching() {
    isNotNull();
    if (actual.serverMetrics().isEmpty()) {
      failWithMessage("%s: the server exposed no Prometheus /metrics to compare with", actual.label());
    } else if (actual.tokenCrossCheck().isEmpty()) {
      failWithMessage("%s: token counts cannot be compared (server family '%s', %d failed requests, token source %s)",
          actual.label(), actual.serverMetrics().get().family(), actual.failed(), actual.tokenSource());
    } else if (!actual.tokenCrossCheck().get().matches()) {
      failWithMessage("%s: token counts differ: %s", actual.label(), actual.tokenCrossCheck().get());
    }
    return this;
  }

  /**
   * The client's decode rate (1 / TPOT) is within {@link DecodeRates#TOLERANCE} of the server's own timing.
   *
   * @return this assertion
   */
  public SweepLevelResultAssert hasDecodeRateMatchingServer() {
    isNotNull();
    DecodeRates d = actual.decodeRates().orElse(null);
    if (d == null) {
      failWithMessage("%s: the server sent no timings.predicted_per_second to compare with (llama.cpp does)", actual.label());
    } else if (!d.agree()) {
      failWithMessage("%s: the client measured %.1f tok/s per request but the server timed %.1f; allowed difference %s",
          actual.label(), d.client(), d.server(), Formats.percent(DecodeRates.TOLERANCE));
    }
    return this;
  }

  /**
   * The server preempted (SGLang: retracted) no request during the level, by its own counter ({@code preemptions} of
   * {@link SweepLevelResult#serverFigures()}); a failure gives the count and the KV cache's use.
   *
   * @return this assertion
   */
  public SweepLevelResultAssert hasNoPreemptions() {
    isNotNull();
    Optional<ServerFigures> f = actual.serverFigures();
    if (f.isEmpty() || f.get().preemptions().isEmpty()) {
      failWithMessage("%s: the server reported no preemption counter (vllm:num_preemptions_total, "
          + "sglang:num_retracted_requests_total)", actual.label());
    } else if (f.get().preemptions().getAsLong() > 0) {
      failWithMessage("%s: the server preempted %d requests%s", actual.label(), f.get().preemptions().getAsLong(),
          Double.isNaN(f.get().kvCacheUsagePeak()) ? "" : " with the KV cache " + Formats.percent(f.get().kvCacheUsagePeak())
              + " full at its peak (mean " + Formats.percent(f.get().kvCacheUsageMean()) + ")");
    }
    return this;
  }

  /**
   * {@return speculative decoding's acceptance rate during the level (accepted over draft tokens, 0..1), by the
   * server's own figures ({@code spec_decode_acceptance_rate})}
   */
  public AbstractDoubleAssert<?> specDecodeAcceptanceRate() {
    isNotNull();
    double v = actual.serverFigures().flatMap(ServerFigures::speculation).map(ServerFigures.Speculation::acceptanceRate)
        .orElseGet(() -> {
          failWithMessage("%s: the server reported no speculative decoding (no draft in the level, or no spec_decode "
              + "counters)", actual.label());
          return Double.NaN;
        });
    return number("spec_decode_acceptance_rate", v);
  }

  /**
   * {@return a server counter's rise during the level, e.g. {@code vllm:num_preemptions_total}}
   *
   * @param name the counter family
   */
  public AbstractDoubleAssert<?> serverCounter(String name) {
    return server("counter", name, m -> m.counter(name), ServerMetrics::deltas);
  }

  /**
   * {@return a server gauge's peak during the level, e.g. {@code vllm:num_requests_waiting}}
   *
   * @param name the gauge family
   */
  public AbstractDoubleAssert<?> serverGaugePeak(String name) {
    return server("gauge peak", name, m -> m.gaugePeak(name), ServerMetrics::gaugePeaks);
  }

  private AbstractDoubleAssert<?> server(String kind, String name, Function<ServerMetrics, Optional<Double>> value,
      Function<ServerMetrics, Map<String, Double>> reported) {
    isNotNull();
    double v = actual.serverMetrics().flatMap(value).orElseGet(() -> {
      failWithMessage("%s: the server reported no %s %s (it reported %s)", actual.label(), kind, name,
          actual.serverMetrics().map(m -> reported.apply(m).keySet().toString()).orElse("no /metrics"));
      return Double.NaN;
    });
    return number("server " + kind + " " + name, v);
  }
}
