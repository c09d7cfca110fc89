package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.LoadShape;
import dev.llmbench.server.DeploymentDescription;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Reads a sweep the way an engineer reads the table: how throughput scales, where it stops, where it
 * falls or a latency falls with load, and what that suggests, each reading checked against the levels'
 * own noise and against what TPOT, TTFT and the server's gauges did. Each kind of finding has its own
 * {@link Detector}; this class builds the curves and runs them, in the order the reading lists them.
 */
@API(status = INTERNAL)
public final class ScalingAnalysis {

  /** Efficiency below this is a knee (or a dip, when a higher level recovers). */
  public static final double KNEE_EFFICIENCY = 0.8;

  /** Over a closed-loop curve of two levels or more: the headline, then a knee or a dip, then a plateau. */
  private static final List<CurveDetector> CURVE = List.of(new ScalingDetector(), new KneeDetector(), new DipDetector(),
      new PlateauDetector(), new SpeculationDetector());
  /** On each step of a closed-loop curve, in this order for each step before the next step's. */
  private static final List<StepDetector> STEPS = List.of(new ThroughputDropDetector(), new LatencyFallsDetector(),
      new ErrorGrowthDetector());
  /** Over an open loop's levels by ascending rate: its capacity first. */
  private static final List<CurveDetector> OPEN_LOOP = List.of(new CapacityDetector(), new QueueingDetector(),
      new SpeculationDetector());

  /**
   * One level's scaling.
   *
   * @param concurrency C
   * @param throughput  output tok/s
   * @param efficiency  throughput at C / (C x throughput at the lowest level, per request in flight)
   */
  public record Point(int concurrency, double throughput, double efficiency) {}

  private final List<Point> points;
  private final List<Finding> findings;

  private ScalingAnalysis(List<Point> points, List<Finding> findings) {
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
    if (sorted.isEmpty()) {
      Finding none = new FindingBuilder(FindingKind.SCALING, "no level completed a request: nothing to analyse", levels).build();
      return new ScalingAnalysis(List.of(), List.of(none));
    }
    SweepLevelResult base = sorted.get(0);
    double perStream = Figures.throughput(base) / base.concurrency();
    List<Point> points = new ArrayList<>();
    for (SweepLevelResult l : sorted) {
      double t = Figures.throughput(l);
      points.add(new Point(l.concurrency(), t, perStream == 0 ? 0 : t / (l.concurrency() * perStream)));
    }
    Curve curve = new Curve(sorted, points, facts);
    List<Finding> findings = new ArrayList<>();
    if (sorted.size() > 1) CURVE.forEach(d -> d.detect(curve).ifPresent(findings::add));
    saidOnce(findings);
    for (int i = 1; i < sorted.size(); i++) {
      int step = i;
      STEPS.forEach(d -> d.detect(curve, step).ifPresent(findings::add));
    }
    return new ScalingAnalysis(List.copyOf(points), List.copyOf(findings));
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

  /**
   * A cause is said once: the headline ({@link FindingKind#SCALING}) lists the causes of what bounds the curve, and the
   * knee or dip, read over the same levels' growth, would list them again; theirs keep only the causes, the causes
   * ruled out and the next steps the headline does not already list (the reports point to the headline's).
   */
  static void saidOnce(List<Finding> findings) {
    Optional<Finding> headline = findings.stream().filter(f -> f.kind() == FindingKind.SCALING).findFirst();
    if (headline.isEmpty()) return;
    Set<String> said = new HashSet<>();
    headline.get().causes().forEach(c -> said.add(c.cause()));
    headline.get().ruledOut().forEach(c -> said.add(c.cause()));
    Set<String> steps = new HashSet<>(headline.get().nextSteps());
    for (int i = 0; i < findings.size(); i++) {
      Finding f = findings.get(i);
      if (f.kind() != FindingKind.KNEE && f.kind() != FindingKind.DIP) continue;
      findings.set(i, new Finding(f.kind(), f.levels(), f.summary(), f.evidence(),
          f.causes().stream().filter(c -> !said.contains(c.cause())).toList(),
          f.ruledOut().stream().filter(c -> !said.contains(c.cause())).toList(),
          f.nextSteps().stream().filter(step -> !steps.contains(step)).toList()));
    }
  }

  /** An open loop's levels by ascending offered rate. */
  static List<Finding> openLoop(List<SweepLevelResult> byRate) {
    Curve curve = Curve.openLoop(byRate);
    List<Finding> findings = new ArrayList<>();
    OPEN_LOOP.forEach(d -> d.detect(curve).ifPresent(findings::add));
    return findings;
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
