package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apiguardian.api.API;

/**
 * What a level read from a summary (a table row, a {@code vllm bench serve} result without per-request
 * data) implies beyond the figures it gives, each derived and said to be:
 * <ul>
 *   <li>output tokens per request: output throughput x window / successful requests;</li>
 *   <li>time per token: the table's TPOT median when it gives one; else {@code (E2E - TTFT) / (tokens - 1)},
 *       as vLLM defines TPOT, with TTFT's median (or mean); else {@code E2E / (tokens - 1)}, an upper bound that
 *       holds the wait for the first token too;</li>
 *   <li>each request's rate: tokens / E2E;</li>
 *   <li>requests in flight on average, by Little's law: mean E2E x successful requests / window. A closed loop
 *       holds at most C, so more than {@value #LITTLE_TOLERANCE} x C says the latencies and the window are not
 *       of the same requests;</li>
 *   <li>the latency's spread: its standard deviation as given, else (p_top - p50) / z, p_top the highest
 *       percentile given above the median and z its normal quantile, never above the expected largest of n
 *       normal samples (Blom's: a p99 of 4 requests is their maximum, about 1 deviation above the median,
 *       not 2.33);</li>
 *   <li>the throughput's noise, for a closed loop whose figures agree by Little's law: the 95% half-width of
 *       the mean latency, 1.96 sigma / (mean sqrt n), plus the time its slowest requests may have held the window
 *       beyond the median, (p_top - p50) / window; never below {@link Noise#FLOOR}.</li>
 * </ul>
 */
@API(status = INTERNAL)
public final class Derived {

  /** A closed loop holds at most C in flight; Little's law above this times C means the columns disagree. */
  static final double LITTLE_TOLERANCE = 1.1;

  /** Percentiles looked for above the median, highest first. */
  private static final double[] TOPS = {100, 99.9, 99.5, 99, 98, 97.5, 95, 90, 80, 75};
  private static final NormalDistribution NORMAL = new NormalDistribution();

  /**
   * A latency's spread as a summary gives it.
   *
   * @param centre     its median, else its mean
   * @param centreStat {@code p50} or {@code mean}
   * @param top        its highest percentile above the median, when given
   * @param topP       that percentile
   * @param sigmaNanos its standard deviation, given or estimated
   * @param count      the requests it is over
   */
  record Spread(Duration centre, String centreStat, Optional<Duration> top, double topP, double sigmaNanos, int count) {

    /** How far its slowest requests sit above its centre: the top percentile's excess, or the expected largest's. */
    double excessNanos() {
      return top.map(t -> (double) Math.max(0, t.toNanos() - centre.toNanos())).orElse(blom(count) * sigmaNanos);
    }

    /** Whether its top percentile is its largest request: given as the maximum, or over too few to be more. */
    boolean topIsMaximum() {
      return top.isPresent() && (topP >= 100 || count < Distribution.samplesNeeded(topP));
    }

    /** {@code p50 8.36 s, p99 8.36 s over 4 requests, so p99 is their maximum}. */
    String describe() {
      String c = centreStat.equals("mean") ? "mean " : "p50 ";
      String t = top.map(d -> ", " + Formats.percentile(topP) + " " + Formats.duration(d)).orElse(", std "
          + Formats.duration(Duration.ofNanos(Math.round(sigmaNanos))));
      return c + Formats.duration(centre) + t + " over " + count + " requests" + (topIsMaximum() && topP < 100
          ? ", so " + Formats.percentile(topP) + " is their maximum" : "");
    }
  }

  /** Where the time per token came from. */
  enum Decode {
    /** The summary's own TPOT median. */
    MEASURED,
    /** (E2E - TTFT) / (tokens - 1). */
    DERIVED,
    /** E2E / (tokens - 1): no TTFT, so the wait for the first token is in it. */
    UPPER_BOUND
  }

  private final SweepLevelResult level;
  private final double tokens;
  private final Optional<Duration> e2e;
  private final String e2eStat;
  private final Optional<Duration> ttft;
  private final double decodeNanos;
  private final Decode decode;
  private final double inFlight;
  private final Optional<Spread> spread;
  private final double noise;
  private final String noiseWhy;

  private Derived(SweepLevelResult l) {
    this.level = l;
    this.tokens = l.succeeded() == 0 ? Double.NaN : (double) l.outputTokens() / l.succeeded();
    Distribution e = l.e2eLatency();
    this.e2e = e.percentile(50).or(e::mean);
    this.e2eStat = e.percentile(50).isPresent() ? "median" : "mean";
    this.ttft = centre(l.ttft());
    Optional<Duration> tpot = l.tpot().percentile(50);
    if (tpot.isPresent()) {
      decode = Decode.MEASURED;
      decodeNanos = tpot.get().toNanos();
    } else if (e2e.isPresent() && tokens > 1.5) {
      decode = ttft.isPresent() ? Decode.DERIVED : Decode.UPPER_BOUND;
      decodeNanos = (e2e.get().toNanos() - ttft.map(Duration::toNanos).orElse(0L)) / (tokens - 1);
    } else {
      decode = null;
      decodeNanos = Double.NaN;
    }
    Optional<Duration> mean = e.mean().or(() -> e.percentile(50));
    double seconds = l.window().toNanos() / 1e9;
    this.inFlight = mean.isPresent() && seconds > 0 ? mean.get().toNanos() / 1e9 * l.succeeded() / seconds : Double.NaN;
    this.spread = spread(e, (int) l.succeeded());
    String why = null;
    double n = Double.NaN;
    if (!(l.load() instanceof LoadShape.ClosedLoop)) {
      why = "an open loop's throughput follows its offered rate, not its latencies";
    } else if (spread.isEmpty()) {
      why = e.isEmpty() ? "needs an E2E latency column (lat avg, lat p50, lat p99)"
          : "needs the latency's p99 (or another percentile above the median) or its std, over 2 requests or more";
    } else if (inFlight > LITTLE_TOLERANCE * l.concurrency()) {
      why = String.format(Locale.ROOT, "by Little's law %.2f were in flight on average (mean E2E x ok / wall), more than "
          + "C=%d: its latencies and its wall are not of the same requests", inFlight, l.concurrency());
    } else {
      Spread s = spread.get();
      double m = mean.orElseThrow().toNanos();
      n = Math.max(Noise.FLOOR, 1.96 * s.sigmaNanos() / (m * Math.sqrt(s.count())) + s.excessNanos() / l.window().toNanos());
    }
    this.noise = n;
    this.noiseWhy = why;
  }

  /** What a summary level implies; empty for a level with per-request data, or none completed. */
  public static Optional<Derived> of(SweepLevelResult l) {
    return summary(l) ? Optional.of(new Derived(l)) : Optional.empty();
  }

  /** A level read from a summary: counts and statistics, no request to read again. */
  static boolean summary(SweepLevelResult l) {
    return l.requests().isEmpty() && l.succeeded() > 0;
  }

  private static Optional<Duration> centre(Distribution d) {
    return d.percentile(50).or(d::mean);
  }

  /** A latency's spread as a summary gives it; empty without a centre and a spread, or over fewer than 2 requests. */
  static Optional<Spread> spread(Distribution d, int count) {
    Optional<Duration> centre = centre(d);
    if (centre.isEmpty() || count < 2) return Optional.empty();
    String stat = d.percentile(50).isPresent() ? "p50" : "mean";
    Optional<Duration> top = Optional.empty();
    double topP = Double.NaN;
    for (double p : TOPS) {
      Optional<Duration> v = p == 100 ? d.max() : d.percentile(p);
      if (v.isPresent()) {
        top = v;
        topP = p;
        break;
      }
    }
    double sigma;
    if (d.stdDev().isPresent()) {
      sigma = d.stdDev().get().toNanos();
    } else if (top.isPresent()) {
      double z = Math.min(topP >= 100 ? Double.POSITIVE_INFINITY : NORMAL.inverseCumulativeProbability(topP / 100), blom(count));
      sigma = Math.max(0, top.get().toNanos() - centre.get().toNanos()) / z;
    } else {
      return Optional.empty();
    }
    return Optional.of(new Spread(centre.get(), stat, top, topP, sigma, count));
  }

  /** The expected largest of n standard normal samples, by Blom's approximation. */
  static double blom(int n) {
    return NORMAL.inverseCumulativeProbability((n - 0.375) / (n + 0.25));
  }

  /** A latency's standard deviation at a summary level, given or estimated from its percentiles; NaN when unknown. */
  static double sigmaNanos(SweepLevelResult l, Metric latency) {
    return spread(latency.distributionOf(l), (int) l.succeeded()).map(Spread::sigmaNanos).orElse(Double.NaN);
  }

  SweepLevelResult level() {
    return level;
  }

  /** Mean output tokens per successful request; NaN when the summary gives no tokens. */
  double tokens() {
    return tokens;
  }

  /** The E2E latency's median, or its mean when the summary gives no median. */
  Optional<Duration> e2e() {
    return e2e;
  }

  /** {@code median} or {@code mean}: which the E2E figure is. */
  String e2eStat() {
    return e2eStat;
  }

  Optional<Duration> ttft() {
    return ttft;
  }

  /** Time per output token, measured or derived (see {@link #decode()}); NaN when neither. */
  double decodeNanos() {
    return decodeNanos;
  }

  double decodeMs() {
    return decodeNanos / 1e6;
  }

  Optional<Decode> decode() {
    return Optional.ofNullable(decode);
  }

  /** Each request's rate over its whole latency, tokens / E2E, in tok/s; NaN when unknown. */
  double perRequestRate() {
    return e2e.isEmpty() || !(tokens > 0) || e2e.get().isZero() ? Double.NaN : tokens / (e2e.get().toNanos() / 1e9);
  }

  /** Requests in flight on average over the window, by Little's law; NaN without a latency. */
  double inFlight() {
    return inFlight;
  }

  /** Whether Little's law has the window about full (at least 90% of C in flight on average). */
  boolean windowFull() {
    return !Double.isNaN(inFlight) && inFlight >= 0.9 * level.concurrency() && noiseWhy == null;
  }

  Optional<Spread> spread() {
    return spread;
  }

  /** The throughput's relative noise, from the level's own spread; empty when it cannot be derived. */
  public Optional<Double> noise() {
    return Double.isNaN(noise) ? Optional.empty() : Optional.of(noise);
  }

  /** Why the noise could not be derived, or what the table would need for it. */
  Optional<String> noiseWhy() {
    return Optional.ofNullable(noiseWhy);
  }

  /** What the level's throughput noise rests on, as a warning: {@code its noise, ±1.0%, is derived from its spread (...)}. */
  public String noiseNote() {
    return noise().map(x -> "its throughput noise, ±" + Formats.percent(x) + ", is derived from its spread ("
        + spread.orElseThrow().describe() + ")").orElse("its throughput noise is not known (±" + Formats.percent(Noise.ASSUMED)
        + " assumed): " + noiseWhy);
  }

  /** {@code at most 16.4 ms}, {@code 16.4 ms}. */
  String decodeText() {
    return (decode == Decode.UPPER_BOUND ? "at most " : "") + Figures.ms(decodeMs());
  }

  /** How the time per token was had, as a phrase after its figures. */
  String decodeSource() {
    if (decode == null) return "not known";
    return switch (decode) {
      case MEASURED -> "the table's TPOT median";
      case DERIVED -> String.format(Locale.ROOT, "derived as (E2E - TTFT) / (tokens - 1), %.0f tokens per request", tokens);
      case UPPER_BOUND -> String.format(Locale.ROOT, "derived from E2E latency and %.0f tokens per request; no TTFT, so an "
          + "upper bound", tokens);
    };
  }

  /** One line saying what was derived for the level and how, or what the table would need. */
  public String line() {
    List<String> parts = new ArrayList<>();
    if (Double.isNaN(tokens) || tokens == 0) {
      parts.add("output tokens per request not known (needs tok/s or total_output_tokens)");
    } else {
      parts.add(String.format(Locale.ROOT, "%.0f output tokens per request (tok/s x wall / ok)", tokens));
    }
    if (decode == Decode.MEASURED) {
      parts.add("time per token " + decodeText() + " (the table's TPOT)");
    } else if (decode != null) {
      parts.add("time per token " + decodeText() + (decode == Decode.DERIVED ? " ((E2E - TTFT) / (tokens - 1))"
          : " (E2E " + e2eStat + " / (tokens - 1); no TTFT, so an upper bound)"));
    } else {
      parts.add("time per token not derived: needs an E2E latency column (lat avg or lat p50)");
    }
    if (!Double.isNaN(perRequestRate())) parts.add(String.format(Locale.ROOT, "%.1f tok/s per request (tokens / E2E)",
        perRequestRate()));
    if (!Double.isNaN(inFlight)) {
      parts.add(String.format(Locale.ROOT, "%.2f in flight on average (Little's law: mean E2E x ok / wall)", inFlight));
    }
    parts.add(noise().map(x -> "throughput noise ±" + Formats.percent(x) + " from its spread (" + spread.orElseThrow()
        .describe() + ")").orElse("throughput noise ±" + Formats.percent(Noise.ASSUMED) + " assumed: " + noiseWhy));
    return level.label() + ": " + String.join("; ", parts);
  }

  /** The derived figures of two summaries a reading rests on: tokens per request, time per token, rate per request. */
  static void evidence(FindingBuilder f, SweepLevelResult... levels) {
    for (SweepLevelResult l : levels) {
      Derived.of(l).ifPresent(d -> {
        f.evidence("output tokens per request at " + l.label() + ", derived", d.tokens(), "tokens");
        if (d.decode().filter(k -> k != Derived.Decode.MEASURED).isPresent()) {
          f.evidence("time per token at " + l.label() + ", derived" + (d.decode().get() == Derived.Decode.UPPER_BOUND
              ? " (upper bound)" : ""), d.decodeMs(), "ms");
        }
        f.evidence("rate per request at " + l.label() + ", derived", d.perRequestRate(), "tok/s");
        f.evidence("in flight on average at " + l.label() + ", derived (Little's law)", d.inFlight(), "requests");
      });
    }
  }
}
