package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import static dev.llmbench.internal.config.SettingKeys.ALLURE_CONFIG;
import static dev.llmbench.internal.config.SettingKeys.PROGRESS;
import static dev.llmbench.internal.config.SettingKeys.PROGRESS_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.REPORT_CHUNK_TIMINGS;
import static dev.llmbench.internal.config.SettingKeys.REPORT_DIR;

import dev.llmbench.internal.config.ProgressMode;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointSpec;
import dev.llmbench.internal.core.RunningLevel;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.report.AllureReporter;
import dev.llmbench.internal.report.ConsoleReporter;
import dev.llmbench.internal.report.FileReporter;
import dev.llmbench.internal.report.ReportOptions;
import dev.llmbench.internal.report.RunSweeps;
import dev.llmbench.internal.shard.Shard;
import dev.llmbench.internal.shard.ShardRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What lives for the whole run, in the root {@link ExtensionContext.Store}: the reports that listen to
 * it, and its endpoints. Closed when the run ends, after every endpoint, so that run-wide report files
 * (Allure's environment) are written last.
 */
@API(status = INTERNAL)
public final class RunState implements AutoCloseable {

  /** How often a redrawn progress line is redrawn. */
  private static final Duration REDRAW_EVERY = Duration.ofSeconds(1);
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RunState.class);

  private final BenchListener listener;
  private final Path reportDir;
  private final ShardRun shards;
  private final Duration progressInterval;
  private final Thread onShutdown = new Thread(this::shuttingDown, "llmbench-shutdown");
  private volatile RunningLevel measuring;
  private volatile Endpoint measuringAgainst;
  private final Candidates candidates = new Candidates();

  private RunState(BenchListener listener, Path reportDir, ShardRun shards, Duration progressInterval) {
    this.listener = listener;
    this.reportDir = reportDir;
    this.shards = shards;
    this.progressInterval = progressInterval;
    Runtime.getRuntime().addShutdownHook(onShutdown);
  }

  /** The level being measured now, or null between levels: a JVM shutdown writes what it has so far. */
  void measuring(RunningLevel level, Endpoint endpoint) {
    this.measuring = level;
    this.measuringAgainst = endpoint;
  }

  /**
   * SIGTERM or Ctrl-C during a level: the requests measured so far are written (JSON, CSV, the sweep's
   * table) before the JVM exits, and the requests still running are cancelled.
   */
  private void shuttingDown() {
    RunningLevel level = measuring;
    Endpoint endpoint = measuringAgainst;
    if (level == null) return;
    level.interrupted().ifPresent(partial -> {
      System.out.println("[llmbench] the JVM is shutting down during " + partial.label() + ": writing the "
          + partial.requestCount() + " requests it had completed");
      level.sweep().measured(partial);
      level.sweep().finish();
    });
    if (endpoint != null) endpoint.client().cancelAll();
  }

  public static RunState of(ExtensionContext context) {
    GivenSettings.check(context);
    return StoreValues.computeIfAbsent(context.getRoot().getStore(NAMESPACE), RunState.class, k -> create(context),
        RunState.class);
  }

  private static RunState create(ExtensionContext context) {
    Settings settings = Settings.of(context);
    Path reportDir;
    Optional<Path> allureConfig;
    Duration progressInterval;
    ProgressMode progress;
    Shard shard;
    ReportOptions reports;
    try {
      reportDir = settings.get(REPORT_DIR).value();
      allureConfig = settings.get(ALLURE_CONFIG).optional();
      progressInterval = settings.get(PROGRESS_INTERVAL).value();
      progress = settings.get(PROGRESS).value().resolve(System.console() != null, System.getenv());
      // A redrawn line is cheap and wants to move: about once a second, or at the interval when that is shorter.
      if (progress == ProgressMode.REDRAW && progressInterval.compareTo(REDRAW_EVERY) > 0) progressInterval = REDRAW_EVERY;
      shard = Shard.from(settings, System.getenv());
      reports = new ReportOptions(settings.get(REPORT_CHUNK_TIMINGS).value());
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("Configuration error: " + e.getMessage(), e);
    }
    Path allureResults = AllureReporter.resultsDir(context.getConfigurationParameter("allure.results.directory"));
    // The shard's manifest listens too, so that a level the shutdown hook writes is in it.
    ShardRun shards = new ShardRun(shard, reportDir);
    return new RunState(Listeners.broadcast(List.of(new ConsoleReporter(reportDir, progress),
        new FileReporter(reportDir, reports, sweeps(context, reportDir)), new AllureReporter(allureResults, allureConfig, reports),
        shards)), reportDir,
        shards, progressInterval);
  }

  /**
   * The sweeps of the whole run into {@code reportDir}, for its overview and the console's last lines: kept in the
   * launcher session's store, which outlives the root context when a build tool (Surefire) executes each class on its
   * own, and closed when the session ends; in the root context's store on a JUnit without session stores (before 5.13).
   */
  private static RunSweeps sweeps(ExtensionContext context, Path reportDir) {
    ExtensionContext.Store store;
    try {
      store = context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, NAMESPACE);
    } catch (LinkageError olderJUnit) {
      store = context.getRoot().getStore(NAMESPACE);
    }
    // get and put rather than getOrComputeIfAbsent, which JUnit 6 deprecates and whose replacement 5.14 lacks.
    synchronized (RunSweeps.class) {
      String key = RunSweeps.class.getName() + ":" + reportDir.toAbsolutePath().normalize();
      RunSweeps sweeps = store.get(key, RunSweeps.class);
      if (sweeps == null) {
        sweeps = new RunSweeps(reportDir);
        store.put(key, sweeps);
      }
      return sweeps;
    }
  }

  /** This JVM's part of a sharded run: its share of each level and the schedule (a plain run is one shard). */
  public ShardRun shards() {
    return shards;
  }

  public BenchListener listener() {
    return listener;
  }

  /** How often a running level prints where it stands. */
  Duration progressInterval() {
    return progressInterval;
  }

  /** The endpoint of this test's settings, created on first use and closed when the run ends. */
  static Endpoint endpoint(ExtensionContext context) {
    of(context); // the run's settings checked before the endpoint's are read
    return endpoint(context, EndpointSettings.of(context));
  }

  /** The endpoint of {@code config} (a deployment's), created on first use and closed when the run ends. */
  static Endpoint endpoint(ExtensionContext context, EndpointSpec config) {
    RunState run = of(context); // stored first, so closed after the endpoints
    return StoreValues.computeIfAbsent(context.getRoot().getStore(NAMESPACE), config,
        k -> new Endpoint(config, run.listener, run.reportDir), Endpoint.class);
  }

  /**
   * The endpoint of a launched candidate, started only once the candidate running before it has stopped and released
   * its port: candidates run one at a time.
   */
  static Endpoint candidate(ExtensionContext context, EndpointSpec config, String name) {
    RunState run = of(context);
    ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
    return run.candidates.switchTo(config, name, c -> endpoint(context, c), c -> {
      Endpoint stopped = store.remove(c, Endpoint.class);
      if (stopped != null) stopped.close();
      return java.util.Optional.ofNullable(stopped);
    });
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(onShutdown);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The hook is running or about to: nothing to remove.
    }
    listener.runFinished();
  }
}
