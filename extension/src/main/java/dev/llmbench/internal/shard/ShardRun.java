package dev.llmbench.internal.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.ServiceLevels;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * This JVM's part of a sharded run, for the whole run: deals each level out ({@link Share}), holds each level
 * until its slot on the shared schedule, and keeps the shard's {@link Manifest} beside its reports. It hears
 * the run's events, so a level written by the JVM's shutdown still lands in the manifest. A run with one
 * shard and no schedule passes every plan through untouched and writes nothing.
 */
@API(status = INTERNAL)
public final class ShardRun implements BenchListener {

  /** Lateness below this is the scheduler's noise, not worth a line. */
  private static final Duration NOTICEABLY_LATE = Duration.ofMillis(500);

  private final Shard shard;
  private final Path reportDir;
  private final Clock clock;
  private final Consumer<String> out;
  private String host; // looked up once, only when a manifest is written
  private final List<Manifest.LevelEntry> levels = new ArrayList<>();

  /**
   * @param reportDir where the manifest goes, beside the sweeps' folders
   * @param clock     the wall clock every shard's schedule is read on
   * @param out       where progress lines go
   */
  public ShardRun(Shard shard, Path reportDir, Clock clock, Consumer<String> out) {
    this.shard = shard;
    this.reportDir = reportDir;
    this.clock = clock;
    this.out = out;
  }

  public ShardRun(Shard shard, Path reportDir) {
    this(shard, reportDir, Clock.systemUTC(), System.out::println);
  }

  public Shard shard() {
    return shard;
  }

  /** Whether this run keeps a manifest: it is one of several shards, or keeps a schedule. */
  private boolean active() {
    return shard.isSharded() || shard.isScheduled();
  }

  /**
   * Checks a sweep's levels before any runs: each must split, and a duration-bounded one must fit its slot.
   *
   * @throws IllegalArgumentException naming the level and the fix
   */
  public void check(List<LevelPlan> plans) {
    for (LevelPlan plan : plans) {
      Share.of(plan, shard.index(), shard.count());
      if (shard.slot().isPresent() && plan.stop() instanceof StopRule.Timed t) {
        Duration needed = t.duration().plus(t.grace());
        if (needed.compareTo(shard.slot().get()) >= 0) {
          throw new IllegalArgumentException(plan.label() + " sends for " + Formats.duration(t.duration()) + " with "
              + Formats.duration(t.grace()) + " of grace, which does not fit llmbench.shard.slot "
              + Formats.duration(shard.slot().get()) + "; make the slot longer than that plus the warm-up");
        }
      }
    }
  }

  /** The next level of the run: its slot on the schedule and this shard's share of it. */
  public synchronized Slot begin(SweepRun sweep, LevelPlan whole, ServiceLevels slo, List<Double> percentiles) {
    int k = levels.size();
    Share share = Share.of(whole, shard.index(), shard.count());
    Manifest.LevelEntry level = new Manifest.LevelEntry(k, sweep.className(), sweep.method(), whole.label(),
        shard.slotStart(k), Optional.empty(), whole, share.plan(), share.skipReason(), slo, percentiles, Optional.empty());
    levels.add(level);
    if (share.plan().isEmpty()) out.accept("[llmbench] " + shard + ": " + share.skipReason());
    write(); // now, not between the slot and the first send
    return new Slot(k, share);
  }

  /** A level's place on the schedule. */
  public final class Slot {

    private final int k;
    private final Share share;

    private Slot(int k, Share share) {
      this.k = k;
      this.share = share;
    }

    /** What this shard sends of the level; empty when it has no share (see {@link #skipReason()}). */
    public Optional<LevelPlan> share() {
      return share.plan();
    }

    public String skipReason() {
      return share.skipReason();
    }

    /**
     * Waits, warmed up, for the level's slot: every shard's measured requests start at the same moment. A level
     * that comes late (a slow readiness wait or warm-up, a level before that overran its slot) measures at once
     * and says by how much, and the manifest keeps it for the merge to weigh.
     */
    public void awaitStart() {
      Optional<Instant> due = shard.slotStart(k);
      Duration late = Duration.ZERO;
      if (due.isPresent()) {
        Duration wait = Duration.between(clock.instant(), due.get());
        String what = share.whole().label() + " (this shard: " + Share.describe(share.plan().orElseThrow()) + ")";
        if (!wait.isNegative()) {
          out.accept("[llmbench] " + shard + ": " + what + " warmed up, measures from " + due.get() + ", in "
              + Formats.duration(wait));
          sleepUntil(due.get());
        } else {
          late = wait.negated();
          if (late.compareTo(NOTICEABLY_LATE) > 0) {
            out.accept("[llmbench] " + shard + ": " + what + " measures from " + Formats.duration(late) + " after its "
                + "slot at " + due.get() + ": the readiness wait, the warm-up or the level before overran; the other "
                + "shards did not wait, so lengthen llmbench.shard.slot");
          }
        }
      }
      synchronized (ShardRun.this) {
        levels.set(k, levels.get(k).began(late)); // written with the result: the first send is due now
      }
    }
  }

  private void sleepUntil(Instant due) {
    long nanos;
    // In nanoseconds: whole milliseconds left a shard starting up to 1 ms before its slot.
    while ((nanos = Duration.between(clock.instant(), due).toNanos()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(Math.min(nanos, 1_000_000_000L));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A measured level (or the part a JVM shutdown saved) enters the manifest with its place on the timeline. */
  @Override
  public synchronized void levelFinished(SweepRun sweep, MeasuredLevel level) {
    for (int i = levels.size() - 1; i >= 0; i--) {
      Manifest.LevelEntry l = levels.get(i);
      if (l.sweepId().equals(sweep.id()) && l.label().equals(level.label()) && l.result().isEmpty()) {
        levels.set(i, l.measured(new Manifest.Result(firstSend(level.metrics()), level.metrics().size(), level.stopReason(),
            level.endpoint())));
        write();
        return;
      }
    }
  }

  /**
   * The wall-clock time of the first send: each request's wall-clock start less its monotonic offset from the
   * first, averaged, so that no single reading of the wall clock sets the timeline.
   */
  static Instant firstSend(List<RequestMetrics> requests) {
    if (requests.isEmpty()) return Instant.EPOCH;
    long first = requests.stream().mapToLong(r -> r.trace().startNanos()).min().orElseThrow();
    Instant base = requests.get(0).trace().startedAt();
    double sum = 0;
    for (RequestMetrics r : requests) {
      sum += Duration.between(base, r.trace().startedAt()).toNanos() - (double) (r.trace().startNanos() - first);
    }
    return base.plusNanos(Math.round(sum / requests.size()));
  }

  private void write() {
    if (!active()) return;
    if (host == null) host = host();
    new Manifest(shard, host, levels).write(reportDir);
  }

  private static String host() {
    String pod = System.getenv("HOSTNAME");
    if (pod != null && !pod.isBlank()) return pod;
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
