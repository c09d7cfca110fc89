package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
public final class RunningLevel implements LoadRunner.Observer {

  private final SweepRun sweep;
  private final LevelPlan plan;
  private final EndpointInfo endpoint;
  private final ServiceLevels slo;
  private final List<Double> percentiles;
  private final List<RequestTrace> completed = new ArrayList<>();
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final AtomicInteger sent = new AtomicInteger();
  private final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();
  private final AtomicLong outputTokens = new AtomicLong();
  private final long startNanos = System.nanoTime();
  /** Successful requests of the last {@link #ROLLING}: when each completed, its TTFT and TPOT (-1 for none). */
  private final ArrayDeque<long[]> recent = new ArrayDeque<>();

  /** The window of a progress line's TTFT and TPOT: recent enough to show a level slowing, long enough to hold a few. */
  static final Duration ROLLING = Duration.ofSeconds(10);

  public RunningLevel(LevelContext level, EndpointInfo endpoint) {
    this.sweep = level.sweep();
    this.plan = level.plan();
    this.endpoint = endpoint;
    this.slo = level.slo();
    this.percentiles = level.percentiles();
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
    long now = System.nanoTime();
    long[] times = null;
    if (!trace.succeeded()) {
      failed.computeIfAbsent(trace.failure().key(), k -> new AtomicInteger()).incrementAndGet();
    } else {
      RequestMetrics m = RequestMetrics.of(trace);
      outputTokens.addAndGet(m.outputTokens());
      times = new long[] {now, m.ttft().map(Duration::toNanos).orElse(-1L), m.tpot().map(Duration::toNanos).orElse(-1L)};
    }
    synchronized (this) {
      completed.add(trace);
      if (times != null) recent.addLast(times);
      while (!recent.isEmpty() && now - recent.peekFirst()[0] > ROLLING.toNanos()) recent.removeFirst();
    }
  }

  /** Where the level stands now. */
  public LevelProgress progress() {
    long now = System.nanoTime();
    // Sent before done: read the other way, a request that ends and is replaced between the two reads counts twice
    // (2 in flight at C=1).
    int sentSoFar = sent.get();
    int done;
    List<long[]> window;
    synchronized (this) {
      done = completed.size();
      while (!recent.isEmpty() && now - recent.peekFirst()[0] > ROLLING.toNanos()) recent.removeFirst();
      window = new ArrayList<>(recent);
    }
    Duration elapsed = Duration.ofNanos(now - startNanos);
    // A count's time left is at the pace so far (completions per elapsed time): an estimate, said as one ("about").
    StopRule stop = plan.stop().on(endpoint.embedded().isPresent());
    // A count that goes on to a precision has sent its count at least; the line says what it then waits for.
    String doneOf = stop.match(c -> done < c.requests() || c.precision().isEmpty() ? done + " of " + c.requests() + " requests done"
        : done + " requests done (" + c.requests() + " planned, then on until output throughput is within ±"
            + Formats.percent(c.precision().get().targetHalfWidth()) + ")",
        t -> done + " requests done", a -> done + " of at most " + a.maxRequests() + " requests done");
    String left = stop.match(
        c -> done >= c.requests() && c.precision().isPresent()
            ? "at most " + Formats.duration(positive(c.precision().get().maxDuration().minus(elapsed))) + " left (its time cap)"
            : pace(elapsed, done, c.requests()).map(d -> "about " + Formats.duration(d) + " left")
            .orElse("time left unknown until a request completes"),
        t -> Formats.duration(positive(t.duration().minus(elapsed))) + " of " + Formats.duration(t.duration()) + " left",
        a -> {
          Duration cap = positive(a.maxDuration().minus(elapsed));
          Duration byCount = pace(elapsed, done, a.maxRequests()).orElse(cap);
          return "at most " + Formats.duration(byCount.compareTo(cap) < 0 ? byCount : cap) + " left (adaptive)";
        });
    Map<String, Integer> failures = new TreeMap<>();
    failed.forEach((k, v) -> failures.put(k, v.get()));
    return new LevelProgress(plan.label(), elapsed, done, failures, Math.max(0, sentSoFar - done), outputTokens.get(),
        doneOf, left, ROLLING, median(window, 1), median(window, 2));
  }

  /** The time the {@code total - done} requests left take at the pace so far, or empty before the first completes. */
  private static Optional<Duration> pace(Duration elapsed, int done, int total) {
    if (done == 0) return Optional.empty();
    return Optional.of(Duration.ofNanos((long) ((double) elapsed.toNanos() / done * Math.max(0, total - done))));
  }

  /** Median of the {@code field} of {@code window} (numpy's linear interpolation), leaving out requests with none. */
  private static Optional<Duration> median(List<long[]> window, int field) {
    double[] v = window.stream().mapToLong(t -> t[field]).filter(x -> x >= 0).mapToDouble(x -> x).toArray();
    if (v.length == 0) return Optional.empty();
    return Optional.of(Duration.ofNanos(Math.round(Percentiles.of(v, 50))));
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
