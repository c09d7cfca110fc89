package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.DeploymentDescription;
import dev.llmbench.Finding;
import dev.llmbench.FindingKind;
import dev.llmbench.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.RequestResult;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Reads a sweep the way an engineer reads the table: how throughput scales, where it stops, where it
 * falls or a latency falls with load, and what that suggests, each reading checked against the levels'
 * own noise and against what TPOT, TTFT and the server's gauges did.
 */
@API(status = INTERNAL)
public final class ScalingAnalysis {

  /** Efficiency below this at the top level means the deployment is bound by something other than batching. */
  static final double POOR_EFFICIENCY = 0.5;

  /** Efficiency below this is a knee (or a dip, when a higher level recovers). */
  public static final double KNEE_EFFICIENCY = 0.8;

  /** An open-loop level is past saturation when its late requests take this much longer than its early ones. */
  static final double QUEUE_GROWTH = 1.5;

  /**
   * One level's scaling.
   *
   * @param concurrency C
   * @param throughput  output tok/s
   * @param efficiency  throughput at C / (C x throughput at the lowest level, per request in flight)
   */
  public record Point(int concurrency, double throughput, double efficiency) {}

  private final List<SweepLevelResult> levels;
  private final List<Point> points;
  private final List<Finding> findings;

  private ScalingAnalysis(List<SweepLevelResult> levels, List<Point> points, List<Finding> findings) {
    this.levels = levels;
    this.points = points;
    this.findings = findings;
  }

  /** Analyses the closed-loop levels of one workload; without deployment facts. */
  public static ScalingAnalysis of(List<? extends SweepLevelResult> levels) {
    return of(levels, DeploymentDescription.NONE);
  }

  /** Analyses the closed-loop levels of one workload (one max_tokens and input setting), one level per C. */
  public static ScalingAnalysis of(List<? extends SweepLevelResult> levels, DeploymentDescription facts) {
    Set<Integer> seen = new HashSet<>();
    List<SweepLevelResult> sorted = levels.stream().filter(l -> l.load() instanceof LoadShape.ClosedLoop && l.succeeded() > 0)
        .map(SweepLevelResult.class::cast).sorted(Comparator.comparingInt(SweepLevelResult::concurrency))
        .filter(l -> seen.add(l.concurrency())).toList();
    List<Point> points = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    if (sorted.isEmpty()) {
      findings.add(new FindingBuilder(FindingKind.SCALING, "no level completed a request: nothing to analyse", levels).build());
      return new ScalingAnalysis(sorted, points, findings);
    }
    SweepLevelResult base = sorted.get(0);
    double perStream = Figures.throughput(base) / base.concurrency();
    for (SweepLevelResult l : sorted) {
      double t = Figures.throughput(l);
      points.add(new Point(l.concurrency(), t, perStream == 0 ? 0 : t / (l.concurrency() * perStream)));
    }
    ScalingAnalysis a = new ScalingAnalysis(sorted, points, findings);
    if (sorted.size() > 1) {
      findings.add(a.headline(facts));
      a.knee(facts).ifPresent(findings::add);
      a.plateau(facts).ifPresent(findings::add);
    }
    for (int i = 1; i < sorted.size(); i++) {
      a.drop(i, facts).ifPresent(findings::add);
      a.latencyFalls(i).ifPresent(findings::add);
      a.errorGrowth(i).ifPresent(findings::add);
    }
    return new ScalingAnalysis(sorted, List.copyOf(points), List.copyOf(findings));
  }

  /**
   * Every finding of a sweep: per curve (deployment and workload), the closed-loop reading or the open
   * loop's capacity, then each level's own findings (cold start, instability, ramp and drain, a saturated
   * client). A curve's own deployment facts win over {@code facts}.
   */
  public static List<Finding> all(List<? extends SweepLevelResult> levels, DeploymentDescription facts) {
    List<Finding> all = new ArrayList<>();
    for (Map.Entry<String, List<SweepLevelResult>> group : SweepGroups.curves(levels).entrySet()) {
      List<SweepLevelResult> members = group.getValue();
      DeploymentDescription own = members.get(0).deploymentDescription().orElse(facts);
      List<Finding> found = members.get(0).load() instanceof LoadShape.OpenLoop ? openLoop(members) : of(members, own).findings();
      found.forEach(f -> all.add(group.getKey().isEmpty() ? f : prefixed(f, "[" + group.getKey() + "] ")));
    }
    for (SweepLevelResult l : levels) all.addAll(l.findings());
    return List.copyOf(all);
  }

  /** The summaries of {@link #all}, without deployment facts: the lines the console prints. */
  public static List<String> findings(List<? extends SweepLevelResult> levels) {
    return all(levels, DeploymentDescription.NONE).stream().map(Finding::summary).toList();
  }

  private static Finding prefixed(Finding f, String prefix) {
    return new Finding(f.kind(), f.levels(), prefix + f.summary(), f.evidence(), f.causes(), f.ruledOut(), f.nextSteps());
  }

  private Finding headline(DeploymentDescription facts) {
    Point first = points.get(0);
    Point last = points.get(points.size() - 1);
    SweepLevelResult lo = levels.get(0);
    SweepLevelResult hi = levels.get(levels.size() - 1);
    double load = (double) last.concurrency() / first.concurrency();
    double gain = first.throughput() == 0 ? 0 : last.throughput() / first.throughput();
    String summary = String.format(Locale.ROOT,
        "%.0fx the concurrency (C=%d to C=%d) gave %.1fx the throughput (%.1f to %.1f tok/s): scaling efficiency %.0f%%",
        load, first.concurrency(), last.concurrency(), gain, first.throughput(), last.throughput(), last.efficiency() * 100);
    FindingBuilder.Causes causes = new FindingBuilder.Causes();
    if (last.efficiency() < POOR_EFFICIENCY) {
      Diagnosis.Reading reading = Diagnosis.bound(lo, hi, facts);
      summary += "; " + reading.clause();
      causes = reading.causes();
    } else {
      summary += "; the server batches well up to this load";
    }
    FindingBuilder b = new FindingBuilder(FindingKind.SCALING, summary, List.of(lo, hi))
        .evidence("output throughput at " + lo.label(), first.throughput(), "tok/s")
        .evidence("output throughput at " + hi.label(), last.throughput(), "tok/s")
        .evidence("scaling efficiency at " + hi.label(), last.efficiency(), "fraction")
        .evidence("TPOT median at " + lo.label(), Figures.medianMs(lo, Metric.TPOT), "ms")
        .evidence("TPOT median at " + hi.label(), Figures.medianMs(hi, Metric.TPOT), "ms")
        .evidence("TTFT median at " + lo.label(), Figures.medianMs(lo, Metric.TTFT), "ms")
        .evidence("TTFT median at " + hi.label(), Figures.medianMs(hi, Metric.TTFT), "ms");
    Figures.gauge(hi, Figures.WAITING).ifPresent(w -> b.evidence("server requests waiting at " + hi.label() + ", peak", w,
        "requests"));
    if (last.efficiency() < POOR_EFFICIENCY) derivedEvidence(b, lo, hi);
    return b.add(causes).build();
  }

  /**
   * The first level under {@value #KNEE_EFFICIENCY} efficiency: a knee when no higher level recovers, a dip
   * (a reading of that level, not a limit of the server) when one does, beyond the noise of both.
   */
  private Optional<Finding> knee(DeploymentDescription facts) {
    int k = -1;
    for (int i = 1; i < points.size(); i++) {
      if (points.get(i).efficiency() < KNEE_EFFICIENCY) {
        k = i;
        break;
      }
    }
    if (k < 0) return Optional.empty();
    Point knee = points.get(k);
    SweepLevelResult at = levels.get(k);
    for (int j = k + 1; j < points.size(); j++) {
      Point later = points.get(j);
      if (later.efficiency() >= KNEE_EFFICIENCY
          && Noise.differ(later.efficiency(), efficiencyNoise(j), knee.efficiency(), efficiencyNoise(k))) {
        return Optional.of(dip(k, j));
      }
    }
    String summary = String.format(Locale.ROOT, "scaling efficiency first drops below 80%% at C=%d (%.0f%%)",
        knee.concurrency(), knee.efficiency() * 100);
    Diagnosis.Reading reading = Diagnosis.bound(levels.get(0), at, facts);
    FindingBuilder b = new FindingBuilder(FindingKind.KNEE, summary + ": " + reading.clause(), List.of(at))
        .evidence("scaling efficiency at " + at.label(), knee.efficiency(), "fraction")
        .evidence("efficiency noise", efficiencyNoise(k), "fraction");
    for (int j = k + 1; j < points.size(); j++) {
      b.evidence("scaling efficiency at " + levels.get(j).label(), points.get(j).efficiency(), "fraction");
    }
    derivedEvidence(b, levels.get(0), at);
    return Optional.of(b.add(reading.causes()).build());
  }

  private Finding dip(int k, int j) {
    Point knee = points.get(k);
    Point later = points.get(j);
    SweepLevelResult at = levels.get(k);
    String summary = String.format(Locale.ROOT, "scaling efficiency dips below 80%% at C=%d (%.0f%%) and recovers to %.0f%% "
        + "at C=%d: a reading of C=%d, not a limit of the server", knee.concurrency(), knee.efficiency() * 100,
        later.efficiency() * 100, later.concurrency(), knee.concurrency());
    FindingBuilder b = new FindingBuilder(FindingKind.DIP, summary, List.of(at, levels.get(j)))
        .evidence("scaling efficiency at " + at.label(), knee.efficiency(), "fraction")
        .evidence("scaling efficiency at " + levels.get(j).label(), later.efficiency(), "fraction")
        .evidence("efficiency noise at " + at.label(), efficiencyNoise(k), "fraction");
    b.add(ReadingCauses.cold(at)).add(ReadingCauses.sampleSize(at, Double.NaN)).add(ReadingCauses.client(at));
    Optional<String> wholeLevel = ReadingCauses.firstRoundNoOutlier(at);
    if (wholeLevel.isPresent()) {
      // A summary whose first round cannot have been the slow part: the whole level was slow, not its start.
      b.possible("something at " + at.label() + " alone", "every round of it was slow, not its first: " + wholeLevel.get()
          + "; a batch of " + at.concurrency() + " the server runs on a slower path, or an event on the server while it ran",
          "run " + at.label() + " again, alone and between its neighbours");
    }
    derivedEvidence(b, levels.get(0), at, levels.get(j));
    return b.build();
  }

  /** Relative noise of a level's efficiency: its throughput's and the base level's, combined. */
  private double efficiencyNoise(int i) {
    return Math.hypot(Noise.throughput(levels.get(i)), Noise.throughput(levels.get(0)));
  }

  /**
   * Throughput stops rising: the lowest level from which no higher level is above it beyond noise,
   * when the highest level has at least twice its concurrency.
   */
  private Optional<Finding> plateau(DeploymentDescription facts) {
    int last = levels.size() - 1;
    for (int p = 0; p < last; p++) {
      SweepLevelResult from = levels.get(p);
      boolean flat = true;
      for (int j = p + 1; j <= last && flat; j++) {
        SweepLevelResult l = levels.get(j);
        if (Figures.throughput(l) > Figures.throughput(from) && Noise.throughputsDiffer(from, l)) flat = false;
      }
      if (!flat) continue;
      if (levels.get(last).concurrency() < 2 * from.concurrency()) return Optional.empty();
      SweepLevelResult top = levels.get(last);
      String summary = String.format(Locale.ROOT, "throughput stops rising at C=%d (%.1f tok/s): up to C=%d adds nothing "
          + "beyond noise", from.concurrency(), Figures.throughput(from), top.concurrency());
      Diagnosis.Reading reading = Diagnosis.bound(from, top, facts);
      FindingBuilder b = new FindingBuilder(FindingKind.PLATEAU, summary + "; " + reading.clause(), levels.subList(p, last + 1));
      for (int j = p; j <= last; j++) {
        b.evidence("output throughput at " + levels.get(j).label(), Figures.throughput(levels.get(j)), "tok/s");
      }
      return Optional.of(b.add(reading.causes()).build());
    }
    return Optional.empty();
  }

  /**
   * Throughput falls from level {@code i - 1} to {@code i} beyond the noise of both; or, within the higher
   * level's noise, when that level's own reading is suspect (a cold start, a partial round, ramp and drain):
   * the few slow requests that widen its interval are then the reason, not chance.
   */
  private Optional<Finding> drop(int i, DeploymentDescription facts) {
    SweepLevelResult lo = levels.get(i - 1);
    SweepLevelResult hi = levels.get(i);
    double a = Figures.throughput(lo);
    double b = Figures.throughput(hi);
    if (b >= a) return Optional.empty();
    boolean beyondNoise = Noise.throughputsDiffer(lo, hi);
    Optional<String> suspect = suspectReading(hi);
    if (!beyondNoise && (suspect.isEmpty() || !Noise.differ(a, Noise.FLOOR, b, Noise.FLOOR))) return Optional.empty();
    double noise = Math.hypot(a * Noise.throughput(lo), b * Noise.throughput(hi));
    String summary = beyondNoise
        ? String.format(Locale.ROOT, "throughput fell from %.1f tok/s at C=%d to %.1f tok/s at C=%d, beyond the noise of "
            + "both (%s): more load, less done", a, lo.concurrency(), b, hi.concurrency(), noiseLabels(lo, hi))
        : String.format(Locale.ROOT, "throughput fell from %.1f tok/s at C=%d to %.1f tok/s at C=%d, within C=%d's noise "
            + "(±%s), which its %s makes wide: %s's reading is suspect before the server is", a, lo.concurrency(), b,
            hi.concurrency(), hi.concurrency(), Formats.percent(Noise.throughput(hi)), suspect.get(), hi.label());
    Optional<String> perRequest = perRequest(lo, hi);
    if (perRequest.isPresent()) summary += "; " + perRequest.get();
    FindingBuilder f = new FindingBuilder(FindingKind.THROUGHPUT_DROP, summary, List.of(lo, hi))
        .evidence("output throughput at " + lo.label(), a, "tok/s").evidence("output throughput at " + hi.label(), b, "tok/s")
        .evidence("noise at " + lo.label(), Noise.throughput(lo), "fraction")
        .evidence("noise at " + hi.label(), Noise.throughput(hi), "fraction")
        .evidence("TPOT median at " + lo.label(), Figures.medianMs(lo, Metric.TPOT), "ms")
        .evidence("TPOT median at " + hi.label(), Figures.medianMs(hi, Metric.TPOT), "ms")
        .evidence("TTFT median at " + lo.label(), Figures.medianMs(lo, Metric.TTFT), "ms")
        .evidence("TTFT median at " + hi.label(), Figures.medianMs(hi, Metric.TTFT), "ms");
    f.add(ReadingCauses.cold(hi)).add(ReadingCauses.sampleSize(hi, (a - b) / noise)).add(ReadingCauses.client(hi))
        .add(ReadingCauses.prefixCache(lo, hi));
    derivedEvidence(f, lo, hi);
    f.add(serverContention(lo, hi, facts));
    return Optional.of(f.build());
  }

  /**
   * {@code ±1.0%, ±2.0%}; for summaries, where the figures came from: {@code ..., each from its own spread}, or
   * {@code ±1.0% from its spread, ±5.0% assumed}.
   */
  private static String noiseLabels(SweepLevelResult lo, SweepLevelResult hi) {
    String a = "±" + Formats.percent(Noise.throughput(lo));
    String b = "±" + Formats.percent(Noise.throughput(hi));
    if (!Derived.summary(lo) && !Derived.summary(hi)) return a + ", " + b;
    if (Noise.fromData(lo) && Noise.fromData(hi)) return a + ", " + b + ", each from its own spread";
    return a + (Noise.fromData(lo) ? " from its spread" : " assumed") + ", " + b + (Noise.fromData(hi) ? " from its spread"
        : " assumed");
  }

  /**
   * What two summaries' latencies say of a throughput that fell: each request took so many times as long for its
   * output, so the C at the higher level were each served at that fraction of the lower level's speed.
   */
  private static Optional<String> perRequest(SweepLevelResult lo, SweepLevelResult hi) {
    Optional<Derived> x = Derived.of(lo);
    Optional<Derived> y = Derived.of(hi);
    Optional<String> stat = Figures.commonStat(lo, hi, Metric.E2E_LATENCY);
    if (x.isEmpty() || y.isEmpty() || stat.isEmpty() || Double.isNaN(x.get().perRequestRate())
        || Double.isNaN(y.get().perRequestRate())) {
      return Optional.empty();
    }
    double e2eLo = Figures.statMs(lo, Metric.E2E_LATENCY, stat.get());
    double e2eHi = Figures.statMs(hi, Metric.E2E_LATENCY, stat.get());
    double tLo = x.get().tokens();
    double tHi = y.get().tokens();
    String output = Math.abs(tHi - tLo) <= 0.05 * tLo ? String.format(Locale.ROOT, "the same output (%.0f tokens", tHi)
        : String.format(Locale.ROOT, "%.0f tokens against %.0f (", tHi, tLo);
    double speed = (tHi / e2eHi) / (tLo / e2eLo);
    String how;
    if (Figures.commonStat(lo, hi, Metric.TTFT).isEmpty()) {
      how = String.format(Locale.ROOT, "the %d were served at %.2fx the speed each, or one after another (no TTFT to tell)",
          hi.concurrency(), speed);
    } else if (Figures.rose(lo, hi, Metric.TTFT) && !x.get().decode().isEmpty() && !y.get().decode().isEmpty()
        && !Diagnosis.decodeRose(x.get(), y.get())) {
      how = "each waited longer for its first token (" + Diagnosis.ttftText(lo, hi) + ") while its time per token kept its "
          + "pace: they were served fewer at a time, not slower";
    } else {
      how = String.format(Locale.ROOT, "the %d were served at %.2fx the speed each", hi.concurrency(), speed);
    }
    return Optional.of(String.format(Locale.ROOT, "each request took %.2fx as long for %s; E2E latency %s %.2f to %.2f s; "
        + "derived per-request rate %.1f to %.1f tok/s): %s", e2eHi / e2eLo, output, stat.get(), e2eLo / 1e3, e2eHi / 1e3,
        x.get().perRequestRate(), y.get().perRequestRate(), how));
  }

  /** The derived figures of two summaries a reading rests on: tokens per request, time per token, rate per request. */
  private static void derivedEvidence(FindingBuilder f, SweepLevelResult... levels) {
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

  /** What makes a level's own reading suspect, as a phrase: its cold start, its partial round, its ramp and drain. */
  private static Optional<String> suspectReading(SweepLevelResult l) {
    if (l.findings().stream().anyMatch(f -> f.kind() == FindingKind.COLD_START)) return Optional.of("cold start");
    if (LevelWarnings.partialRound(l).isPresent()) return Optional.of("partial last round");
    if (LevelWarnings.steadyStateGap(l).isPresent()) return Optional.of("ramp-up and drain");
    return Optional.empty();
  }

  /** Contention in the server, only as far as TPOT, TTFT and its gauges bear it out. */
  private static FindingBuilder.Causes serverContention(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    double tpotLo = Figures.medianMs(lo, Metric.TPOT);
    double tpotHi = Figures.medianMs(hi, Metric.TPOT);
    double ratio = (double) hi.concurrency() / lo.concurrency();
    String tpot = String.format(Locale.ROOT, "TPOT %.1f to %.1f ms", tpotLo, tpotHi);
    if (Figures.rose(lo, hi, Metric.TPOT) && tpotHi / tpotLo > ratio) {
      c.likely("contention in the server", String.format(Locale.ROOT, "each decode step slowed %.1f-fold (%s) while the "
          + "batch grew %.1f-fold: interconnect, memory bandwidth, KV-cache preemption or a CPU-bound scheduler",
          tpotHi / tpotLo, tpot, ratio), facts.isEmpty() ? Diagnosis.DESCRIBE_STEP : null);
    } else if (Figures.rose(lo, hi, Metric.TPOT)) {
      c.possible("contention in the server", String.format(Locale.ROOT, "each decode step slowed %.1f-fold (%s), less than "
          + "the %.1f-fold batch: decoding alone does not explain the drop", tpotHi / tpotLo, tpot, ratio), null);
    } else if (!Double.isNaN(tpotLo) && !Double.isNaN(tpotHi)) {
      c.ruledOut("decode steps that slow with the batch", tpot + ": each step kept its pace or got faster");
    }
    boolean waitRead = Double.isNaN(tpotLo) || Double.isNaN(tpotHi) ? derivedContention(lo, hi, facts, ratio, c) : false;
    if (!waitRead && Figures.rose(lo, hi, Metric.TTFT)) {
      Diagnosis.queueing(hi, Figures.gauge(hi, Figures.WAITING), Diagnosis.ttftText(lo, hi), c);
    }
    Figures.counter(hi, Figures.PREEMPTIONS).filter(p -> p > 0).ifPresent(p -> c.likely("KV-cache pressure",
        Math.round(p) + " preemptions at " + hi.label(), "give the KV cache more memory or lower the concurrent sequences"));
    return c;
  }

  /**
   * Contention read from two summaries without TPOT: each request's derived time per token against the batch's
   * growth, and the bound the deployment facts name, said to be likely from them, not measured per token.
   */
  private static boolean derivedContention(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts, double ratio,
      FindingBuilder.Causes c) {
    Optional<Derived> x = Derived.of(lo);
    Optional<Derived> y = Derived.of(hi);
    if (x.isEmpty() || y.isEmpty() || x.get().decode().isEmpty() || y.get().decode().isEmpty()) return false;
    String perToken = Diagnosis.perToken(x.get(), y.get());
    double grew = y.get().decodeNanos() / x.get().decodeNanos();
    String confidence = "likely, from " + (facts.isEmpty() ? "" : "the facts and ") + "the growth of per-request time, "
        + "not measured per token";
    if (Diagnosis.decodeRose(x.get(), y.get()) && grew > ratio) {
      c.likely("contention in the server", String.format(Locale.ROOT, "each request's time per token grew %.2f-fold (%s) "
          + "while the batch grew %.1f-fold: the %d were served at %.2fx the speed of %s's each", grew, perToken, ratio,
          hi.concurrency(), 1 / grew, lo.label()), facts.isEmpty() ? Diagnosis.DESCRIBE_STEP : null);
      if (!facts.isEmpty()) c.add(Diagnosis.qualified(Diagnosis.decodeBound(facts), confidence));
    } else if (Diagnosis.decodeRose(x.get(), y.get())) {
      c.possible("contention in the server", String.format(Locale.ROOT, "each request's time per token grew %.2f-fold (%s), "
          + "less than the %.1f-fold batch: decoding alone does not explain the drop", grew, perToken, ratio), null);
    } else {
      c.ruledOut("decode steps that slow with the batch", perToken + ": each request's time per token kept its pace");
      if (Figures.rose(lo, hi, Metric.TTFT)) Diagnosis.waitBeforeFirstToken(lo, hi, perToken, c);
      // A wait for a slot would have made each request longer: with its time kept, none is left to tell.
      return true;
    }
    if (Figures.commonStat(lo, hi, Metric.TTFT).isEmpty()) {
      c.possible("a batch or slot limit below C", String.format(Locale.ROOT, "without TTFT a wait for a slot looks the same "
          + "in E2E latency: a server running %d at a time would make each of %d requests take %.1fx as long for about "
          + "the same throughput", lo.concurrency(), hi.concurrency(), ratio), "add TTFT (ttft p50, or median_ttft_ms) to "
          + "the table: it tells the wait for the first token from decoding");
    }
    return false;
  }

  /** A latency's median falls from level {@code i - 1} to {@code i}, beyond the noise of both: the lower was not steady. */
  private Optional<Finding> latencyFalls(int i) {
    SweepLevelResult lo = levels.get(i - 1);
    SweepLevelResult hi = levels.get(i);
    List<String> fell = new ArrayList<>();
    List<Metric> metrics = List.of(Metric.E2E_LATENCY, Metric.TTFT, Metric.TPOT);
    for (Metric m : metrics) {
      if (Figures.fell(lo, hi, m)) {
        String stat = Figures.commonStat(lo, hi, m).orElseThrow();
        fell.add(String.format(Locale.ROOT, "%s %s %.1f to %.1f ms", m.label(), stat, Figures.statMs(lo, m, stat),
            Figures.statMs(hi, m, stat)));
      }
    }
    if (fell.isEmpty()) return Optional.empty();
    String summary = "latency falls with load from " + lo.label() + " to " + hi.label() + " (" + String.join("; ", fell)
        + "): more load, faster requests, so " + lo.label() + " was not steady";
    Optional<Derived> x = Derived.of(lo);
    Optional<Derived> y = Derived.of(hi);
    if (x.isPresent() && y.isPresent() && !Double.isNaN(x.get().perRequestRate()) && !Double.isNaN(y.get().perRequestRate())) {
      summary += String.format(Locale.ROOT, "; each request ran at %.1f tok/s at %s and %.1f tok/s at %s (derived: tokens / "
          + "E2E)", x.get().perRequestRate(), lo.label(), y.get().perRequestRate(), hi.label());
    }
    FindingBuilder b = new FindingBuilder(FindingKind.LATENCY_FALLS_WITH_LOAD, summary, List.of(lo, hi));
    for (Metric m : metrics) {
      String stat = Figures.commonStat(lo, hi, m).orElse("median");
      b.evidence(m.label() + " " + stat + " at " + lo.label(), Figures.statMs(lo, m, stat), "ms")
          .evidence(m.label() + " " + stat + " at " + hi.label(), Figures.statMs(hi, m, stat), "ms");
    }
    derivedEvidence(b, lo, hi);
    b.add(ReadingCauses.prefixCache(hi, lo));
    FindingBuilder.Causes cold = ReadingCauses.cold(lo);
    Optional<String> notFirstRound = slowerThanAFirstRound(lo, hi);
    if (notFirstRound.isPresent()) cold = new FindingBuilder.Causes().ruledOut("a cold start at " + lo.label(), notFirstRound.get());
    Optional<FirstRound> first = FirstRound.outlier(lo);
    if (first.isPresent() && first.get().laterMedian().toNanos() > Figures.median(hi, first.get().metric())
        .map(d -> d.toNanos() + Noise.medianNanos(hi, first.get().metric())).orElse(Double.MAX_VALUE)) {
      // Medians barely move for one cold round: if the later rounds are still slower, the cold start is not why.
      cold = new FindingBuilder.Causes().possible("a cold start at " + lo.label(), "its first round was cold, but its "
          + "second half's " + first.get().metric().label() + " median (" + Formats.duration(first.get().laterMedian())
          + ") is still above " + hi.label() + "'s", ReadingCauses.WARM_UP_STEP);
    }
    b.add(cold).add(ReadingCauses.client(lo)).add(ReadingCauses.sampleSize(lo, Double.NaN));
    b.possible("a server that speeds up under load", "accelerator clocks that ramp up, or speculative decoding that "
        + "accepts more at larger batches", null);
    return Optional.of(b.build());
  }

  /**
   * Why a summary level whose latency fell at the next level was slower than a cold first round can make it: were
   * its first round of C at its maximum and every other request as fast as the higher level's slowest, its mean
   * would be at most {@code (C x top + (n - C) x fast) / n}; a mean above that says more than its first round was slow.
   */
  private static Optional<String> slowerThanAFirstRound(SweepLevelResult lo, SweepLevelResult hi) {
    Optional<Derived.Spread> s = Derived.of(lo).flatMap(Derived::spread).filter(Derived.Spread::topIsMaximum);
    Optional<Derived.Spread> fast = Derived.of(hi).flatMap(Derived::spread);
    Optional<java.time.Duration> mean = lo.e2eLatency().mean();
    long n = lo.succeeded();
    int c = lo.concurrency();
    if (s.isEmpty() || fast.isEmpty() || mean.isEmpty() || n < 2L * c) return Optional.empty();
    java.time.Duration top = s.get().top().orElseThrow();
    java.time.Duration quick = fast.get().top().orElse(fast.get().centre());
    double bound = (c * (double) top.toNanos() + (n - c) * (double) quick.toNanos()) / n;
    if (mean.get().toNanos() <= bound) return Optional.empty();
    return Optional.of(String.format(Locale.ROOT, "even were its first round of %d as slow as its slowest request (%s) and "
        + "its other %d as fast as %s's %s (%s), its mean would be %s, not %s: more than its first round was slow", c,
        Formats.duration(top), n - c, hi.label(), fast.get().top().isPresent() ? Formats.percentile(fast.get().topP())
        : fast.get().centreStat(), Formats.duration(quick), Formats.duration(java.time.Duration.ofNanos(Math.round(bound))),
        Formats.duration(mean.get())));
  }

  /** Requests fail more often at level {@code i} than at {@code i - 1}, beyond chance (two-proportion z above 1.96). */
  private Optional<Finding> errorGrowth(int i) {
    SweepLevelResult lo = levels.get(i - 1);
    SweepLevelResult hi = levels.get(i);
    double p1 = lo.errorRate();
    double p2 = hi.errorRate();
    if (hi.failed() < 2 || p2 <= p1) return Optional.empty();
    double n1 = lo.requestCount();
    double n2 = hi.requestCount();
    double pooled = (lo.failed() + hi.failed()) / (n1 + n2);
    double se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
    double z = se == 0 ? Double.POSITIVE_INFINITY : (p2 - p1) / se;
    if (z <= 1.96) return Optional.empty();
    String summary = String.format(Locale.ROOT, "errors grow with load: %s failed at %s, %s at %s %s", Formats.percent(p1),
        lo.label(), Formats.percent(p2), hi.label(), hi.errorsByType());
    FindingBuilder b = new FindingBuilder(FindingKind.ERROR_GROWTH, summary, List.of(lo, hi))
        .evidence("error rate at " + lo.label(), p1, "fraction").evidence("error rate at " + hi.label(), p2, "fraction")
        .evidence("two-proportion z", z, "");
    hi.errorsByType().forEach((type, count) -> {
      if (type.startsWith("HTTP 429") || type.startsWith("HTTP 503")) {
        b.likely("admission control", count + " x " + type + ": the server (or a proxy) turned requests away under load",
            "raise the server's queue limits, or keep C below where it refuses");
      } else if (type.startsWith("HTTP 5")) {
        b.likely("server errors under load", count + " x " + type, "read the server's log at " + hi.label()
            + " (out of memory?)");
      } else if (type.startsWith("TIMEOUT")) {
        b.likely("requests outliving the timeout", count + " timed out: they queued or ran longer than "
            + "llmbench.request-timeout / idle-timeout allow", "check the queue, or raise the timeouts");
      } else if (type.startsWith("CANCELLED")) {
        b.likely("the grace period", count + " were still running when the level's grace ended", "raise @Measurement(grace)");
      } else {
        b.likely("dropped connections", count + " x " + type + ": connections broke or were refused (connection "
            + "limits, a proxy's timeouts, the client's file descriptors)", "check proxies and connection limits");
      }
    });
    b.add(ReadingCauses.client(hi));
    return Optional.of(b.build());
  }

  /**
   * Levels by ascending offered rate. A level kept up when its queue did not build: the mean latency of
   * its last third of requests (by send time) is at most {@value #QUEUE_GROWTH}x that of its first third.
   * Completed requests per window would mislead here: a short level's window includes the last request's
   * latency.
   */
  static List<Finding> openLoop(List<SweepLevelResult> byRate) {
    List<Finding> findings = new ArrayList<>();
    SweepLevelResult keptUp = null;
    for (SweepLevelResult l : byRate) {
      Optional<Double> growth = latencyGrowth(l);
      if (growth.isPresent() && growth.get() <= QUEUE_GROWTH) {
        keptUp = l;
      } else if (growth.isPresent()) {
        FindingBuilder b = new FindingBuilder(FindingKind.QUEUEING, String.format(Locale.ROOT, "at %s req/s the latency of "
            + "the last third of requests is %.1fx that of the first third: requests queue, the server is past saturation",
            Formats.number(SweepGroups.rate(l)), growth.get()), List.of(l))
            .evidence("offered rate", SweepGroups.rate(l), "req/s")
            .evidence("latency growth, last third over first", growth.get(), "")
            .evidence("request throughput", l.requestThroughput().perSecond(), "req/s");
        b.add(ReadingCauses.client(l));
        findings.add(b.build());
        break;
      }
    }
    String capacity = keptUp == null ? "the server kept up with none of the offered rates"
        : "the server kept up with offered rates up to " + Formats.number(SweepGroups.rate(keptUp)) + " req/s (no queue built up)";
    FindingBuilder b = new FindingBuilder(FindingKind.CAPACITY, capacity, keptUp == null ? List.of() : List.of(keptUp));
    if (keptUp != null) b.evidence("highest rate kept up with", SweepGroups.rate(keptUp), "req/s");
    findings.add(0, b.build());
    return findings;
  }

  /** Mean E2E latency of the last third of successful requests over that of the first third, by send time. */
  static Optional<Double> latencyGrowth(SweepLevelResult l) {
    List<RequestResult> ok = l.requests().stream().filter(RequestResult::succeeded).toList(); // in send order
    int third = ok.size() / 3;
    if (third == 0) return Optional.empty();
    double first = ok.subList(0, third).stream().mapToLong(r -> r.e2eLatency().toNanos()).average().orElse(0);
    double last = ok.subList(ok.size() - third, ok.size()).stream().mapToLong(r -> r.e2eLatency().toNanos()).average().orElse(0);
    return first == 0 ? Optional.empty() : Optional.of(last / first);
  }

  public List<Point> points() {
    return points;
  }

  public List<Finding> findings() {
    return findings;
  }

  /** Scaling efficiency at {@code concurrency}, when a level ran it. */
  public Optional<Double> efficiency(int concurrency) {
    return points.stream().filter(p -> p.concurrency() == concurrency).map(Point::efficiency).findFirst();
  }

  @Override
  public String toString() {
    return String.join("\n", findings.stream().map(Finding::summary).toList());
  }
}
