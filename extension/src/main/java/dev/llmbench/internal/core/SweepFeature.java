package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A feature of a sweep (baseline, capacity search, deployment comparison, quality, sessions): it sees each
 * measured level and the finished sweep, and returns what the reports show of it. Given by its feature's
 * registration ({@code internal.spi.Feature#sweep}) and added with {@link SweepRun#add} before the sweep's first level;
 * reports iterate {@link SweepRun#sections(MeasuredLevel)} and
 * {@link SweepRun#sections(List)} and never name a feature (an ArchUnit rule); a level's extension fails the level
 * with the sections' {@link FeatureSection#violations() violations} ({@link SweepRun#violations}). A feature lives
 * in its own package and needs no report type (charts draw with {@code internal.chart}).
 *
 * <p>Both methods are called from the reports, perhaps more than once and from more than one listener, so
 * they must be functions of what they are given and of the feature's own settings (and of what it recorded
 * before the sweep finished, such as a capacity search's answers): {@link SweepRun#sections(MeasuredLevel)}
 * computes each answer once and keeps it in the level's or the sweep's {@link Memo}.
 */
@API(status = INTERNAL)
public interface SweepFeature {

  /**
   * Short and stable: the field of the level and sweep documents this feature's JSON goes under, and the
   * prefix of its files ({@code baseline}, {@code capacity}, {@code quality}).
   */
  String key();

  /** What the feature says of one measured level; empty when it has nothing to say of it. */
  default Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    return Optional.empty();
  }

  /**
   * What a level's test method may take from this feature, by parameter type (the level against its baseline,
   * the deployments measured at its load, its quality): asked once the level is measured and recorded, so
   * {@link SweepRun#levels()} holds it.
   */
  default Map<Class<?>, Object> parameters(SweepRun sweep, MeasuredLevel level) {
    return Map.of();
  }

  /**
   * A level this feature already holds from an earlier run with the same settings (a resumed matrix's candidate that
   * was measured completely), to report instead of measuring it again; empty to measure it. Asked before each level of
   * a deployment, in the order of the features; the first answer wins.
   */
  default Optional<MeasuredLevel> recorded(SweepRun sweep, LevelContext level, String deployment) {
    return Optional.empty();
  }

  /**
   * Where {@code deployment}'s data is kept across runs (a resumed matrix's folder of that candidate), for every feature to
   * keep its own of it there (what it derived from the replies, which a reused level's file does not hold); empty when
   * this feature keeps none. Asked in the order of the features; the first answer wins.
   */
  default Optional<Path> keptFolder(SweepRun sweep, String deployment) {
    return Optional.empty();
  }

  /**
   * A level was measured or reused, before the reports hear of it: what the feature keeps of it beyond this run (a
   * matrix's ledger). Called once per level, also for the part of a level a JVM's shutdown writes.
   */
  default void measured(SweepRun sweep, MeasuredLevel level) {}

  /**
   * The sweep has ended with {@code levels}, and the reports are about to hear of it: what the feature keeps of
   * the run (a baseline saves the sweep as the next one). Called once; the reports' sections are asked after it.
   */
  default void ended(SweepRun sweep, List<MeasuredLevel> levels) {}

  /** What the feature says of the sweep, for the levels that ran; empty when it has nothing to say. */
  default Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    return Optional.empty();
  }
}
