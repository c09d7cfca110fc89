package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * One sweep of a test method while it runs: the levels measured so far, and its summary, reported once
 * when the sweep ends, for whichever levels ran.
 *
 * @see BenchListener#sweepFinished
 */
@API(status = INTERNAL)
public final class SweepRun {

  private final String className;
  private final String method;
  private final BenchListener listener;
  private final List<MeasuredLevel> levels = new ArrayList<>();
  private final Memo memo = new Memo();
  private final List<SweepFeature> features = new CopyOnWriteArrayList<>();
  /** The levels a feature held from an earlier run, reported instead of measured (by identity). */
  private final Set<MeasuredLevel> reused = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean finished;
  /** The tests of the sweep that failed, in the order they ended: what makes its verdict failed or broken. */
  private final List<TestFailure> failures = new CopyOnWriteArrayList<>();
  private volatile boolean search;
  private volatile boolean comparison;
  private final Instant started = Instant.now();
  private volatile Instant ended;

  /**
   * A test of the sweep that did not pass: a level's, an {@code @AfterSweep} method's, a search's conclusion.
   *
   * @param test    what the test is called in the run: {@code C=32}, {@code scales (after the sweep)}, {@code capacity}
   * @param failure what it threw: an {@link AssertionError} is a failed check, anything else a broken test
   */
  public record TestFailure(String test, Throwable failure) {

    /** Whether a check failed, rather than the test breaking before it could check (Allure's failed, not broken). */
    public boolean isAssertion() {
      return failure instanceof AssertionError;
    }
  }

  /**
   * @param testClass the class that declares the sweep
   * @param method    the sweep's method name
   * @param listener  where the sweep's events go
   */
  public SweepRun(Class<?> testClass, String method, BenchListener listener) {
    this(testClass.getName(), method, listener);
  }

  /**
   * A sweep known by its class's binary name ({@code a.b.Outer$Inner}), for results read back from files
   * where the class itself need not be loadable (a merge of shards).
   */
  public SweepRun(String className, String method, BenchListener listener) {
    this.className = className;
    this.method = method;
    this.listener = listener;
  }

  /** The binary name of the class that declares the sweep: {@code a.b.Outer$Inner}. */
  public String className() {
    return className;
  }

  /** {@code Inner}, as {@link Class#getSimpleName()} gives it. */
  public String simpleClassName() {
    return className.substring(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
  }

  public String packageName() {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? "" : className.substring(0, dot);
  }

  public String method() {
    return method;
  }

  /** What people read: {@code EmbeddedDeploymentBenchmarkTest.throughput}. */
  public String title() {
    return simpleClassName() + "." + method;
  }

  /** Unique in the run and safe as a folder name: the class's full name and the method. */
  public String id() {
    return className.replace('$', '.') + "." + method;
  }

  public BenchListener listener() {
    return listener;
  }

  /** Derived values of the sweep (table, charts, findings), computed once for every report. */
  public Memo memo() {
    return memo;
  }

  /**
   * Adds a feature to this sweep, before its first level runs; reports show features in the order added. What
   * a feature knows of the sweep (its baseline, the deployments it compares, its capacity search) stays with it:
   * core needs no type of theirs.
   */
  public void add(SweepFeature feature) {
    features.add(feature);
  }

  /** The sweep's features, in the order they were added. */
  public List<SweepFeature> features() {
    return List.copyOf(features);
  }

  /** What each feature says of the level, computed once per level and feature, in the order of the features. */
  public List<FeatureSection> sections(MeasuredLevel level) {
    List<FeatureSection> all = new ArrayList<>();
    for (SweepFeature f : features) {
      level.memo().get(new SectionKey(f, List.of()), () -> f.level(this, level).map(s -> s.withKey(f.key()))).ifPresent(all::add);
    }
    return all;
  }

  /**
   * What each feature says of the sweep, computed once per sweep and feature, in the order of the features:
   * ask when the sweep has finished, for the levels it reports.
   */
  public List<FeatureSection> sections(List<MeasuredLevel> ran) {
    List<FeatureSection> all = new ArrayList<>();
    for (SweepFeature f : features) {
      memo.get(new SectionKey(f, List.copyOf(ran)), () -> f.sweep(this, ran).map(s -> s.withKey(f.key()))).ifPresent(all::add);
    }
    return all;
  }

  /** What the features give the level's test method, by parameter type; the first feature's value for a type wins. */
  public Map<Class<?>, Object> parameters(MeasuredLevel level) {
    Map<Class<?>, Object> all = new LinkedHashMap<>();
    for (SweepFeature f : features) f.parameters(this, level).forEach(all::putIfAbsent);
    return all;
  }

  /**
   * Why the level fails, every feature's reasons in the order of the features; empty when it passes. Its
   * extension fails the level with them after the reports have written it, without knowing the features.
   */
  public List<String> violations(MeasuredLevel level) {
    return sections(level).stream().flatMap(s -> s.violations().stream()).toList();
  }

  /**
   * A memo key per feature instance (two sweeps' features never share an answer) and, for the sweep's sections,
   * the levels asked about: an answer for fewer levels is never taken for the finished sweep's.
   */
  private record SectionKey(SweepFeature feature, List<MeasuredLevel> levels) {}

  /** Records that a test of this sweep failed: its verdict says so, first, on every page. */
  public void failed(String test, Throwable failure) {
    failures.add(new TestFailure(test, failure));
  }

  /** The sweep's tests that failed so far, in the order they ended. */
  public List<TestFailure> failures() {
    return List.copyOf(failures);
  }

  /**
   * Marks the sweep as a search, whose levels are probes chosen by whether the last met the SLO: a probe past the
   * SLO is how it finds the answer, not a failure of the sweep.
   */
  public void searches() {
    search = true;
  }

  /** Whether the sweep is a search ({@link #searches()}). */
  public boolean isSearch() {
    return search;
  }

  /**
   * Marks the sweep as a comparison of deployments at each load: which of them holds the SLO there is its answer, so
   * one deployment's miss is not a failure of the sweep; every deployment's miss at a load is.
   */
  public void compares() {
    comparison = true;
  }

  /** Whether the sweep compares deployments ({@link #compares()}). */
  public boolean isComparison() {
    return comparison;
  }

  /** When the sweep was planned: the start of its first level's wait for the endpoint. */
  public Instant started() {
    return started;
  }

  /** When it ended ({@link #finish()}), or now while it runs. */
  public Instant ended() {
    Instant e = ended;
    return e == null ? Instant.now() : e;
  }

  /** The levels measured so far, in run order. */
  public synchronized List<MeasuredLevel> levels() {
    return List.copyOf(levels);
  }

  /** Records a measured level and tells the listeners. */
  public void measured(MeasuredLevel level) {
    synchronized (this) {
      levels.add(level);
    }
    for (SweepFeature f : features) f.measured(this, level);
    listener.levelFinished(this, level);
  }

  /** The level as a feature already holds it from an earlier run (a resumed matrix), the first feature's; empty to measure it. */
  public Optional<MeasuredLevel> recorded(LevelContext level, String deployment) {
    for (SweepFeature f : features) {
      Optional<MeasuredLevel> r = f.recorded(this, level, deployment);
      if (r.isPresent()) {
        synchronized (this) {
          reused.add(r.get());
        }
        return r;
      }
    }
    return Optional.empty();
  }

  /**
   * Whether {@code level} was reused from an earlier run ({@link #recorded}) rather than measured by this one: its file
   * holds its requests and figures, not its replies.
   */
  public synchronized boolean reused(MeasuredLevel level) {
    return reused.contains(level);
  }

  /** Where {@code deployment}'s data is kept across runs, the first feature's answer ({@link SweepFeature#keptFolder}). */
  public Optional<Path> keptFolder(String deployment) {
    for (SweepFeature f : features) {
      Optional<Path> folder = f.keptFolder(this, deployment);
      if (folder.isPresent()) return folder;
    }
    return Optional.empty();
  }

  /** Tells the listeners the sweep ended, once, if any level ran. */
  public void finish() {
    List<MeasuredLevel> ran;
    synchronized (this) {
      if (finished || levels.isEmpty()) return;
      finished = true;
      ended = Instant.now();
      ran = List.copyOf(levels);
    }
    // The features first (a baseline is saved before the reports name its file); a feature that fails keeps
    // neither the others nor the reports from running, and its failure is rethrown after them.
    RuntimeException failed = null;
    for (SweepFeature f : features) {
      try {
        f.ended(this, ran);
      } catch (RuntimeException e) {
        if (failed == null) failed = e;
        else failed.addSuppressed(e);
      }
    }
    try {
      listener.sweepFinished(this, ran);
    } catch (RuntimeException e) {
      if (failed == null) throw e;
      failed.addSuppressed(e);
    }
    if (failed != null) throw failed;
  }

  @Override
  public String toString() {
    return title();
  }
}
