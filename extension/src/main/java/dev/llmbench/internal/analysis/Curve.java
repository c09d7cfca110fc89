package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ScalingAnalysis.Point;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Optional;

/**
 * What the detectors read: the levels of one workload by ascending load (C for a closed loop, the offered rate for
 * an open one), each closed-loop level's scaling, and the deployment facts the causes may name.
 */
final class Curve {

  private final List<SweepLevelResult> levels;
  private final List<Point> points;
  private final DeploymentDescription facts;

  Curve(List<SweepLevelResult> levels, List<Point> points, DeploymentDescription facts) {
    this.levels = List.copyOf(levels);
    this.points = List.copyOf(points);
    this.facts = facts;
  }

  /** An open loop's levels by ascending offered rate: no scaling points, no facts. */
  static Curve openLoop(List<SweepLevelResult> byRate) {
    return new Curve(byRate, List.of(), DeploymentDescription.NONE);
  }

  List<SweepLevelResult> levels() {
    return levels;
  }

  List<Point> points() {
    return points;
  }

  DeploymentDescription facts() {
    return facts;
  }

  /** Relative noise of a level's efficiency: its throughput's and the base level's, combined. */
  double efficiencyNoise(int i) {
    return Math.hypot(Noise.throughput(levels.get(i)), Noise.throughput(levels.get(0)));
  }

  /** The first level above the base under {@value ScalingAnalysis#KNEE_EFFICIENCY} efficiency. */
  Optional<Integer> firstBelowKnee() {
    for (int i = 1; i < points.size(); i++) {
      if (points.get(i).efficiency() < ScalingAnalysis.KNEE_EFFICIENCY) return Optional.of(i);
    }
    return Optional.empty();
  }

  /** The first level above {@code k} back at or over the knee's efficiency, beyond the noise of both. */
  Optional<Integer> recovery(int k) {
    Point knee = points.get(k);
    for (int j = k + 1; j < points.size(); j++) {
      Point later = points.get(j);
      if (later.efficiency() >= ScalingAnalysis.KNEE_EFFICIENCY
          && Noise.differ(later.efficiency(), efficiencyNoise(j), knee.efficiency(), efficiencyNoise(k))) {
        return Optional.of(j);
      }
    }
    return Optional.empty();
  }
}
