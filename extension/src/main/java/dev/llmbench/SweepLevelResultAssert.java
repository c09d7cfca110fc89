package dev.llmbench;

import dev.llmbench.internal.metrics.Distribution;
import dev.llmbench.internal.metrics.Percentiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.AbstractDoubleAssert;
import org.assertj.core.api.AbstractDurationAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.presentation.StandardRepresentation;

/**
 * Assertions on one level. Value accessors ({@link #outputTokensPerSecond()}, {@link #latencyP99()}, ...)
 * return AssertJ assertions described with the level and the metric, so a failure reads e.g.
 * {@code [C=8: output throughput (tok/s)] Expecting actual: 212.4 to be greater than: 250.0}. Checks
 * of several things at once ({@link #hasNoErrors()}, {@link #meetsSlo()}) list every violation.
 *
 * <p>A percentile needs enough samples to be more than the maximum (p99 needs 100). Asserting on one
 * with fewer fails and says how many are needed, unless {@link #allowingFewSamples()} was called.
 */
public final class SweepLevelResultAssert extends AbstractAssert<SweepLevelResultAssert, SweepLevelResult> {

  private static final StandardRepresentation READABLE = new StandardRepresentation() {
    @Override
    protected String fallbackToStringOf(Object object) {
      return object instanceof Duration d ? Formats.duration(d) : super.fallbackToStringOf(object);
    }
  };

  private final boolean allowFewSamples;

  SweepLevelResultAssert(SweepLevelResult actual, boolean allowFewSamples) {
    super(actual, SweepLevelResultAssert.class);
    this.allowFewSamples = allowFewSamples;
  }

  /** Lets percentile assertions use a percentile that rests on fewer samples than it needs. */
  public SweepLevelResultAssert allowingFewSamples() {
    return new SweepLevelResultAssert(actual, true);
  }

  /** Every request succeeded; otherwise lists each error type with its count and an example. */
  public SweepLevelResultAssert hasNoErrors() {
    isNotNull();
    if (actual.failed() > 0) {
      List<String> lines = new ArrayList<>();
      for (Map.Entry<String, Long> e : actual.errorsByType().entrySet()) {
        String example = actual.requests().stream().filter(r -> !r.succeeded() && r.trace().error().key().equals(e.getKey()))
            .findFirst().map(r -> r.trace().error().message()).orElse("");
        lines.add("  - " + e.getKey() + ": " + e.getValue() + " (e.g. " + example + ")");
      }
      failWithMessage("%s: expected no failed requests but %d of %d failed:%n%s", actual.label(), actual.failed(),
          actual.requestCount(), String.join("\n", lines));
    }
    return this;
  }

  /** The share of failed requests is at most {@code maxPercent}. */
  public SweepLevelResultAssert hasErrorRateAtMost(double maxPercent) {
    isNotNull();
    if (actual.errorRate() * 100 > maxPercent) {
      failWithMessage("%s: expected an error rate of at most %s%% but it was %.1f%% (%d of %d failed: %s)", actual.label(),
          Formats.number(maxPercent), actual.errorRate() * 100, actual.failed(), actual.requestCount(), actual.errorsByType());
    }
    return this;
  }

  /**
   * Every objective of the level's {@link Slo} holds at its percentile, and at least that share of requests
   * met all of them; every violation is listed.
   */
  public SweepLevelResultAssert meetsSlo() {
    return meetsSlo(actual.serviceLevels());
  }

  public SweepLevelResultAssert meetsSlo(ServiceLevels slo) {
    isNotNull();
    if (slo.isEmpty()) failWithMessage("%s: no SLO to check; declare @Slo on the method or class, or pass ServiceLevels", actual.label());
    double p = slo.percentile();
    List<String> violations = new ArrayList<>();
    slo.ttft().ifPresent(max -> check(violations, "TTFT", actual.ttft(), p, max));
    slo.tpot().ifPresent(max -> check(violations, "TPOT", actual.tpot(), p, max));
    slo.e2eLatency().ifPresent(max -> check(violations, "E2E latency", actual.e2eLatency(), p, max));
    double attainment = actual.sloAttainment() * 100;
    if (attainment < p) {
      violations.add(String.format(Locale.ROOT, "SLO attainment %.1f%% is below the required %s%% (%d of %d requests met every objective)",
          attainment, Formats.number(p), Math.round(actual.sloAttainment() * actual.requestCount()), actual.requestCount()));
    }
    if (!violations.isEmpty()) {
      failWithMessage("%s: %d SLO violation(s) of [%s]:%n  - %s", actual.label(), violations.size(), slo,
          String.join("\n  - ", violations));
    }
    return this;
  }

  private void check(List<String> violations, String name, Distribution d, double p, Duration max) {
    if (d.isEmpty()) {
      violations.add(name + ": no successful request to measure");
      return;
    }
    if (!d.supports(p) && !allowFewSamples) {
      violations.add(tooFew(name, d, p));
      return;
    }
    Duration v = d.percentile(p).orElseThrow();
    if (v.compareTo(max) > 0) {
      violations.add(name + " " + Percentiles.label(p) + " is " + Formats.duration(v) + ", above the required " + Formats.duration(max));
    }
  }

  private String tooFew(String name, Distribution d, double p) {
    return String.format(Locale.ROOT, "%s %s rests on %d samples, so it is only the maximum; it needs at least %d requests "
        + "(raise 'requests', use adaptive mode with targetCiHalfWidth, or call allowingFewSamples())",
        name, Percentiles.label(p), d.count(), Percentiles.samplesNeeded(p));
  }

  // ----- throughput

  public AbstractDoubleAssert<?> outputTokensPerSecond() {
    return number("output throughput (tok/s)", actual.outputThroughput().perSecond());
  }

  /** The lower bound of the 95% interval of output tok/s: a gate on it does not flake on noise. */
  public AbstractDoubleAssert<?> outputTokensPerSecondLowerBound() {
    return number("output throughput 95% CI lower bound (tok/s)", actual.outputThroughputCi().lower());
  }

  public AbstractDoubleAssert<?> totalTokensPerSecond() {
    return number("total token throughput (tok/s)", actual.totalTokenThroughput().perSecond());
  }

  public AbstractDoubleAssert<?> requestsPerSecond() {
    return number("request throughput (req/s)", actual.requestThroughput().perSecond());
  }

  public AbstractDoubleAssert<?> goodputRequestsPerSecond() {
    return number("goodput (req/s)", actual.goodput().perSecond());
  }

  /** SLO attainment in percent. */
  public AbstractDoubleAssert<?> sloAttainmentPercent() {
    return number("SLO attainment (%)", actual.sloAttainment() * 100);
  }

  // ----- latency

  public AbstractDurationAssert<?> latencyP50() {
    return latency(50);
  }

  public AbstractDurationAssert<?> latencyP90() {
    return latency(90);
  }

  public AbstractDurationAssert<?> latencyP99() {
    return latency(99);
  }

  public AbstractDurationAssert<?> latencyAvg() {
    return duration("E2E latency mean", actual.e2eLatency().mean().orElse(null));
  }

  public AbstractDurationAssert<?> latency(double percentile) {
    return percentile("E2E latency", actual.e2eLatency(), percentile);
  }

  public AbstractDurationAssert<?> ttftP50() {
    return ttft(50);
  }

  public AbstractDurationAssert<?> ttftP99() {
    return ttft(99);
  }

  public AbstractDurationAssert<?> ttft(double percentile) {
    return percentile("TTFT", actual.ttft(), percentile);
  }

  public AbstractDurationAssert<?> ttfo(double percentile) {
    return percentile("TTFO", actual.ttfo(), percentile);
  }

  public AbstractDurationAssert<?> tpot(double percentile) {
    return percentile("TPOT", actual.tpot(), percentile);
  }

  public AbstractDurationAssert<?> itl(double percentile) {
    return percentile("ITL", actual.itl(), percentile);
  }

  /** The upper bound of the 95% interval of a latency percentile. */
  public AbstractDurationAssert<?> latencyUpperBound(double percentile) {
    enoughSamples("E2E latency", actual.e2eLatency(), percentile);
    double upper = actual.percentileCi(actual.e2eLatency(), percentile).upper();
    return duration("E2E latency " + Percentiles.label(percentile) + " 95% CI upper bound", Duration.ofNanos(Math.round(upper)));
  }

  private AbstractDurationAssert<?> percentile(String name, Distribution d, double p) {
    isNotNull();
    if (d.isEmpty()) failWithMessage("%s: no %s samples (no successful request)", actual.label(), name);
    enoughSamples(name, d, p);
    return duration(name + " " + Percentiles.label(p), d.percentile(p).orElseThrow());
  }

  private void enoughSamples(String name, Distribution d, double p) {
    if (!d.supports(p) && !allowFewSamples) failWithMessage("%s: %s", actual.label(), tooFew(name, d, p));
  }

  private AbstractDoubleAssert<?> number(String what, double value) {
    isNotNull();
    return Assertions.assertThat(value).as("%s: %s", actual.label(), what);
  }

  private AbstractDurationAssert<?> duration(String what, Duration value) {
    return Assertions.assertThat(value).withRepresentation(READABLE).as("%s: %s", actual.label(), what);
  }

  // ----- server side

  /** The server's counters agreed with the client's token counts (no cross-check warning). */
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

  /** The client's decode rate (1 / TPOT) is within {@value SweepLevelResult.DecodeRates#TOLERANCE} of the server's own timing. */
  public SweepLevelResultAssert hasDecodeRateMatchingServer() {
    isNotNull();
    SweepLevelResult.DecodeRates d = actual.decodeRates().orElse(null);
    if (d == null) {
      failWithMessage("%s: the server sent no timings.predicted_per_second to compare with (llama.cpp does)", actual.label());
    } else if (!d.agree()) {
      failWithMessage("%s: the client measured %.1f tok/s per request but the server timed %.1f; allowed difference %.0f%%",
          actual.label(), d.client(), d.server(), SweepLevelResult.DecodeRates.TOLERANCE * 100);
    }
    return this;
  }

  /** A server counter's rise during the level, e.g. {@code vllm:num_preemptions_total}. */
  public AbstractDoubleAssert<?> serverCounter(String name) {
    isNotNull();
    double v = actual.serverMetrics().flatMap(m -> m.counter(name)).orElseGet(() -> {
      failWithMessage("%s: the server reported no counter %s (it reported %s)", actual.label(), name,
          actual.serverMetrics().map(m -> m.deltas().keySet().toString()).orElse("no /metrics"));
      return Double.NaN;
    });
    return number("server counter " + name, v);
  }

  /** A server gauge's peak during the level, e.g. {@code vllm:num_requests_waiting}. */
  public AbstractDoubleAssert<?> serverGaugePeak(String name) {
    isNotNull();
    double v = actual.serverMetrics().flatMap(m -> m.gaugePeak(name)).orElseGet(() -> {
      failWithMessage("%s: the server reported no gauge %s", actual.label(), name);
      return Double.NaN;
    });
    return number("server gauge peak " + name, v);
  }
}
