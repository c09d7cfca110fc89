package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.ServiceLevels;
import dev.llmbench.StopReason;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apiguardian.api.API;

/**
 * The level being measured right now, and the requests it has completed so far: what a JVM shutdown in the
 * middle of a level writes instead of losing. Whoever {@link #claim claims} the level reports it: the
 * level itself when it ends, or the shutdown if it comes first.
 */
@API(status = INTERNAL)
public final class LevelInProgress implements LoadRunner.Observer {

  private final SweepRun sweep;
  private final LevelPlan plan;
  private final EndpointInfo endpoint;
  private final ServiceLevels slo;
  private final List<Double> percentiles;
  private final List<RequestTrace> completed = new ArrayList<>();
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final AtomicInteger sent = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicLong outputTokens = new AtomicLong();
  private final long startNanos = System.nanoTime();

  public LevelInProgress(SweepRun sweep, LevelPlan plan, EndpointInfo endpoint, ServiceLevels slo, List<Double> percentiles) {
    this.sweep = sweep;
    this.plan = plan;
    this.endpoint = endpoint;
    this.slo = slo;
    this.percentiles = percentiles;
  }

  public SweepRun sweep() {
    return sweep;
  }

  @Override
  public void sending(int index, long scheduledNanos) {
    sent.incrementAndGet();
  }

  @Override
  public void completed(RequestTrace trace) {
    if (!trace.succeeded()) failed.incrementAndGet();
    else outputTokens.addAndGet(RequestMetrics.of(trace).outputTokens());
    synchronized (this) {
      completed.add(trace);
    }
  }

  /** Where the level stands now. */
  public LevelProgress progress() {
    int done;
    synchronized (this) {
      done = completed.size();
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
    String remaining = plan.stop().match(
        c -> Math.max(0, c.requests() - done) + " of " + c.requests() + " requests to go",
        t -> Formats.duration(positive(t.duration().minus(elapsed))) + " of " + Formats.duration(t.duration()) + " to go",
        a -> "adaptive: at most " + Math.max(0, a.maxRequests() - done) + " requests or "
            + Formats.duration(positive(a.maxDuration().minus(elapsed))) + " to go");
    return new LevelProgress(plan.label(), elapsed, done, failed.get(), Math.max(0, sent.get() - done), outputTokens.get(),
        remaining);
  }

  private static Duration positive(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  /** True for the first caller only: that one reports the level. */
  public boolean claim() {
    return claimed.compareAndSet(false, true);
  }

  /** The level as measured so far, if this caller claimed it. */
  public Optional<MeasuredLevel> interrupted() {
    if (!claim()) return Optional.empty();
    List<RequestMetrics> metrics;
    synchronized (this) {
      metrics = completed.stream().map(RequestMetrics::of).toList();
    }
    return Optional.of(new MeasuredLevel(plan, endpoint, metrics, slo, percentiles, StopReason.INTERRUPTED, null,
        List.of("the JVM was shut down during this level: it holds the " + metrics.size()
            + " requests that had completed by then")));
  }
}
