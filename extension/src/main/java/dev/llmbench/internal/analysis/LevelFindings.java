package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.SteadyState;
import dev.llmbench.result.WarmupReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/** What one level says about itself: a cold start, instability, ramp and drain, a saturated client. */
@API(status = INTERNAL)
public final class LevelFindings {

  /** A request in ten whose per-token time is this many times the median's makes the level unstable. */
  public static final double TPOT_SPREAD = 1.5;
  /** Throughput noise (relative half-width of its 95% interval) above which one figure says little. */
  public static final double WIDE_NOISE = 0.10;

  private LevelFindings() {}

  public static List<Finding> of(SweepLevelResult l) {
    List<Finding> found = new ArrayList<>();
    if (l.succeeded() == 0) return found;
    coldStart(l).ifPresent(found::add);
    Optional<Finding> unstable = unstable(l);
    unstable.ifPresent(found::add);
    if (unstable.isEmpty()) summaryStability(l).ifPresent(found::add);
    rampAndDrain(l).ifPresent(found::add);
    clientBound(l).ifPresent(found::add);
    BehindSchedule.of(l).ifPresent(found::add);
    ServerFindings.preemption(l).ifPresent(found::add);
    return found;
  }

  static Optional<Finding> coldStart(SweepLevelResult l) {
    Optional<FirstRound> outlier = FirstRound.outlier(l);
    Optional<WarmupReport> w = l.warmup();
    boolean warmupFailed = w.isPresent() && w.get().failed() > 0;
    boolean warmupShort = w.isPresent() && w.get().target() > 0 && !w.get().reachedTarget();
    if (outlier.isEmpty() && !warmupFailed && !warmupShort) return Optional.empty();
    String summary;
    if (outlier.isPresent()) {
      FirstRound o = outlier.get();
      summary = String.format(Locale.ROOT, "%s may have started cold: its first round's %s median %s is above most "
          + "settled requests' (the second half's median %s, max %s; %.1f robust deviations)", l.label(), o.metric().label(),
          Formats.duration(o.firstMedian()), Formats.duration(o.laterMedian()), Formats.duration(o.laterMax()), o.z());
    } else if (warmupFailed) {
      summary = l.label() + " may have started cold: " + w.get().failed() + " of its " + w.get().requests()
          + " warm-up requests failed";
    } else {
      summary = l.label() + " may have started cold: its warm-up never had " + w.get().target()
          + " requests in flight together (at most " + w.get().peakInFlight() + ")";
    }
    FindingBuilder b = new FindingBuilder(FindingKind.COLD_START, summary, List.of(l));
    outlier.ifPresent(o -> b.evidence("first round " + o.metric().label() + " median", ms(o.firstMedian()), "ms")
        .evidence("second half " + o.metric().label() + " median", ms(o.laterMedian()), "ms")
        .evidence("second half " + o.metric().label() + " max", ms(o.laterMax()), "ms")
        .evidence("robust deviations above the second half's median", o.z(), ""));
    w.ifPresent(x -> b.evidence("warm-up requests", x.requests(), "requests").evidence("warm-up failures", x.failed(), "requests")
        .evidence("warm-up peak in flight", x.peakInFlight(), "requests").evidence("warm-up max_tokens", x.maxTokens(), "tokens"));
    if (w.isEmpty()) {
      b.likely("no warm-up", "the first round ran whatever the server does the first time it meets a batch of "
          + l.concurrency() + " (compiling or capturing a graph for a new shape, growing its KV cache, opening connections)",
          ReadingCauses.WARM_UP_STEP);
    } else if (warmupFailed) {
      b.likely("a warm-up that failed", w.get().failed() + " of " + w.get().requests() + " warm-up requests failed "
          + w.get().errorsByType(), "find out why the warm-up failed: the server may still have been loading");
    } else if (warmupShort) {
      b.likely("a warm-up that never ran the level's batch", "it had at most " + w.get().peakInFlight() + " of "
          + w.get().target() + " in flight", "lengthen the warm-up's requests: @Warmup(maxTokens = ...)");
    } else if (w.get().maxTokens() < Figures.maxTokensAsked(l)) {
      b.likely("a warm-up shorter than the level", "its requests asked for " + w.get().maxTokens() + " tokens, the level's for "
          + Figures.maxTokensAsked(l) + ": longer sequences met a cold path", "warm up with the level's max_tokens: @Warmup(maxTokens = -1)");
    } else {
      b.possible("a cold path the warm-up did not reach", "the warm-up ran a batch of " + w.get().peakInFlight()
          + " with the level's max_tokens", "send more warm-up requests: @Warmup(requests = " + 2 * l.concurrency() + ")");
    }
    b.possible("an event on the server as the level began", "another tenant, a scale-up or a cache eviction", null);
    b.next("or leave the first round out of the figure: measure one more round and compare");
    return Optional.of(b.build());
  }

  static Optional<Finding> unstable(SweepLevelResult l) {
    Distribution tpot = l.tpot();
    double spread = Double.NaN;
    if (tpot.supports(90) && tpot.percentile(90).isPresent() && tpot.percentile(50).isPresent()) {
      spread = (double) tpot.percentile(90).orElseThrow().toNanos() / Math.max(1, tpot.percentile(50).orElseThrow().toNanos());
    }
    double noise = Noise.known(l) ? l.outputThroughputCi().relativeHalfWidth() : Double.NaN;
    boolean spreadWide = spread >= TPOT_SPREAD;
    boolean noiseWide = noise > WIDE_NOISE;
    if (!spreadWide && !noiseWide) return Optional.empty();
    String summary = l.label() + " is unstable: " + (spreadWide
        ? String.format(Locale.ROOT, "one request in ten takes %.1fx the median time per token (TPOT p90 %s, p50 %s)", spread,
            Formats.duration(tpot.percentile(90).orElseThrow()), Formats.duration(tpot.percentile(50).orElseThrow()))
        : "") + (spreadWide && noiseWide ? "; " : "")
        + (noiseWide ? "its throughput is only known to ±" + Formats.percent(noise) : "");
    FindingBuilder b = new FindingBuilder(FindingKind.UNSTABLE, summary, List.of(l))
        .evidence("TPOT p90 / p50", spread, "")
        .evidence("throughput noise", noise, "fraction")
        .evidence("E2E latency p50", Figures.medianMs(l, Metric.E2E_LATENCY), "ms")
        .evidence("E2E latency max", l.e2eLatency().max().map(LevelFindings::ms).orElse(Double.NaN), "ms");
    Optional<Double> preemptions = Figures.counter(l, Figures.PREEMPTIONS);
    preemptions.filter(p -> p > 0).ifPresent(p -> b.likely("preemption", Math.round(p) + " requests were preempted "
        + "(vllm:num_preemptions_total): the KV cache ran out and their work was redone", "lower max_num_seqs or the "
        + "context length, or give the KV cache more memory (gpu_memory_utilization, FP8 KV cache)"));
    FindingBuilder.Causes client = ReadingCauses.client(l);
    b.add(client);
    FindingBuilder.Causes cold = ReadingCauses.cold(l);
    cold.ruledOut.clear();
    b.add(cold);
    b.possible("new requests' prefill interleaved with decoding", "a step that admits a prompt takes longer for every "
        + "request in the batch (chunked prefill spreads it out)", null);
    b.possible("another tenant or a noisy neighbour", "the server or its host shared its accelerators or CPUs", null);
    b.add(ReadingCauses.sampleSize(l, Double.NaN));
    b.next(ReadingCauses.ROUNDS_STEP);
    return Optional.of(b.build());
  }

  /**
   * A summary level's stability, from the only spread it shows, its E2E latency's: unstable when its slowest
   * requests took {@value #TPOT_SPREAD}x its median or more, or its throughput is known to no better than
   * {@value #WIDE_NOISE}; else stable, so that its figures read as signal. With a handful of requests its top
   * percentile is their maximum, and it says so.
   */
  static Optional<Finding> summaryStability(SweepLevelResult l) {
    Optional<Derived> d = Derived.of(l);
    Optional<Derived.Spread> spread = d.flatMap(Derived::spread).filter(s -> s.top().isPresent());
    if (spread.isEmpty()) return Optional.empty();
    Derived.Spread s = spread.get();
    double ratio = (double) s.top().orElseThrow().toNanos() / Math.max(1, s.centre().toNanos());
    Optional<Double> noise = d.get().noise();
    String known = noise.map(n -> "from that spread its throughput is known to ±" + Formats.percent(n))
        .orElse("its throughput's noise is not derived (" + d.get().noiseWhy().orElse("") + ")");
    String top = Formats.percentile(s.topP());
    String centre = s.centreStat().equals("mean") ? "on average" : "at p50";
    String over = s.count() + " requests" + (s.topIsMaximum() && s.topP() < 100 ? ", so " + top + " is their maximum" : "");
    boolean wide = ratio >= TPOT_SPREAD || noise.filter(n -> n > WIDE_NOISE).isPresent();
    FindingBuilder b;
    if (wide) {
      b = new FindingBuilder(FindingKind.UNSTABLE, String.format(Locale.ROOT, "%s is unstable: its slowest requests took "
          + "%.1fx its %s (%s %s, %s %s; %s): %s", l.label(), ratio, s.centreStat().equals("mean") ? "mean" : "median", top,
          Formats.duration(s.top().orElseThrow()), s.centreStat(), Formats.duration(s.centre()), over, known), List.of(l));
    } else {
      b = new FindingBuilder(FindingKind.STABLE, String.format(Locale.ROOT, "%s is stable: its requests took %s %s and %s "
          + "at %s (%s): %s", l.label(), Formats.duration(s.centre()), centre, Formats.duration(s.top().orElseThrow()), top,
          over, known), List.of(l));
    }
    b.evidence("E2E latency " + s.centreStat(), ms(s.centre()), "ms")
        .evidence("E2E latency " + top, ms(s.top().orElseThrow()), "ms")
        .evidence("E2E latency deviation, derived", s.sigmaNanos() / 1e6, "ms")
        .evidence("requests", s.count(), "requests")
        .evidence("throughput noise, derived", noise.orElse(Double.NaN), "fraction");
    if (wide) {
      b.add(ReadingCauses.client(l));
      FindingBuilder.Causes cold = ReadingCauses.cold(l);
      cold.ruledOut.clear();
      b.add(cold);
      b.possible("new requests' prefill interleaved with decoding", "a step that admits a prompt takes longer for every "
          + "request in the batch (chunked prefill spreads it out)", null);
      b.possible("another tenant or a noisy neighbour", "the server or its host shared its accelerators or CPUs", null);
      b.possible("answers of different lengths", "a summary does not say whether every request generated as many tokens",
          "send ignore_eos so every request generates max_tokens: @Workload(ignoreEos = true)");
      b.add(ReadingCauses.sampleSize(l, Double.NaN));
      b.next(ReadingCauses.ROUNDS_STEP);
    }
    return Optional.of(b.build());
  }

  static Optional<Finding> rampAndDrain(SweepLevelResult l) {
    Optional<String> gap = LevelWarnings.steadyStateGap(l);
    if (gap.isEmpty()) return Optional.empty();
    SteadyState s = l.steadyState().orElseThrow();
    FindingBuilder b = new FindingBuilder(FindingKind.RAMP_AND_DRAIN, l.label() + ": " + gap.get(), List.of(l))
        .evidence("steady-state output throughput", s.outputThroughput().perSecond(), "tok/s")
        .evidence("window output throughput", Figures.throughput(l), "tok/s")
        .evidence("ramp", ms(s.ramp()), "ms").evidence("drain", ms(s.drain()), "ms")
        .evidence("share of the window", s.rampAndDrainShare(), "fraction");
    LevelWarnings.partialRound(l).ifPresent(p -> b.likely("a partial last round", p, ReadingCauses.ROUNDS_STEP));
    long distinctLengths = l.requests().stream().filter(r -> r.succeeded()).mapToInt(r -> r.outputTokens()).distinct().count();
    if (distinctLengths > 1) {
      b.likely("answers of different lengths", "requests generated between "
          + l.requests().stream().filter(r -> r.succeeded()).mapToInt(r -> r.outputTokens()).min().orElse(0) + " and "
          + l.requests().stream().filter(r -> r.succeeded()).mapToInt(r -> r.outputTokens()).max().orElse(0)
          + " tokens, so the last round drains one request at a time", "send ignore_eos so every request generates "
          + "max_tokens: @Workload(ignoreEos = true), the default; where answers must end where the model stops (an eval, "
          + "tool calls, structured output) or the server does not honour ignore_eos, read the steady-state figure instead");
    }
    if (s.ramp().compareTo(s.drain()) > 0) {
      b.likely("a slow ramp-up", "C requests were first in flight together " + Formats.duration(s.ramp())
          + " after the first was sent", CLIENT_STEP_OR_WARMUP);
    }
    if (Figures.rounds(l) < 5) {
      b.possible("few rounds", "ramp and drain weigh more in " + Figures.rounds(l) + " rounds than in 10", ReadingCauses.ROUNDS_STEP);
    }
    b.next("read the steady-state figure, which holds C in flight throughout");
    return Optional.of(b.build());
  }

  private static final String CLIENT_STEP_OR_WARMUP = "check the client's own load (clientLoad()) and the warm-up";

  static Optional<Finding> clientBound(SweepLevelResult l) {
    List<String> reasons = ClientCheck.reasons(l);
    if (reasons.isEmpty()) return Optional.empty();
    ClientLoad c = l.clientLoad().orElseThrow();
    FindingBuilder b = new FindingBuilder(FindingKind.CLIENT_BOUND, "the client may have set " + l.label() + "'s figures: "
        + String.join("; ", reasons), List.of(l))
        .evidence("JVM CPU share", c.processCpuShare(), "fraction")
        .evidence("machine CPU share", c.machineCpuShare(), "fraction")
        .evidence("client threads' CPU share", c.clientCpuShare(), "fraction")
        .evidence("client threads' wait for a core, share", c.clientWaitShare(), "fraction")
        .evidence("client threads' wait for a core, each time", ms(c.clientWaitPerRun()), "ms")
        .evidence("wake-up lag p90", ms(c.wakeupLagP90()), "ms")
        .evidence("ITL median", Figures.medianMs(l, Metric.ITL), "ms")
        .evidence("events read per second", c.eventsPerSecond(), "events/s");
    reasons.forEach(r -> b.likely("the client", r, ReadingCauses.CLIENT_STEP));
    Figures.gauge(l, Figures.WAITING).ifPresent(w -> {
      b.evidence("server requests waiting, peak", w, "requests");
      if (w == 0) {
        b.ruledOut("the server's queue", "the server never had a request waiting, yet TTFT p99 is "
            + l.ttft().percentile(99).map(Formats::duration).orElse("-"));
      }
    });
    b.next("compare with a lighter level, or the same level from a second client machine");
    return Optional.of(b.build());
  }

  static double ms(Duration d) {
    return d.toNanos() / 1e6;
  }
}
