package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apiguardian.api.API;

/**
 * Sends a level's requests, closed loop (exactly C in flight) or open loop (arrivals at a rate), and
 * returns every trace, failed ones included. Non-blocking: the calling thread schedules every send and takes
 * every completion, while the requests themselves run on the client's event loops, so a level of 1,024
 * streams needs no more threads than a level of one. Results gathered before an interruption are kept.
 */
@API(status = INTERNAL)
public final class LoadRunner {

  /** How long cancelled requests may take to report back once the grace period has ended. */
  private static final Duration AFTER_CANCEL = Duration.ofSeconds(30);

  /** Sends request number {@code index}, meant to go at {@code scheduledNanos}, without waiting for it. */
  @FunctionalInterface
  public interface Sender {
    /** The future completes when the request ends, and never exceptionally: a failure is in its trace. */
    CompletableFuture<RequestTrace> send(int index, long scheduledNanos);
  }

  /**
   * An open loop's own schedule instead of drawn gaps, e.g. a trace's timestamps: asked in order, once per
   * request, for when request {@code index} is due.
   */
  @FunctionalInterface
  public interface Arrivals {
    /** Nanoseconds after the run's start at which request {@code index} is due; negative when the schedule has ended. */
    long offsetNanos(int index);
  }

  /** What a run produced. */
  public record Outcome(List<RequestTrace> traces, StopReason stopReason) {}

  /**
   * Watches a run as it goes (progress lines, the client's own load): called on the thread that runs the
   * level, one call at a time, so it must be quick; other threads may read what it keeps.
   */
  public interface Observer {
    Observer NONE = new Observer() {};

    /** Request {@code index} is about to be sent; it was due at {@code scheduledNanos}. */
    default void sending(int index, long scheduledNanos) {}

    /** A request ended, failed ones included. */
    default void completed(RequestTrace trace) {}

    /** Both observers, {@code first} told first. */
    static Observer both(Observer first, Observer second) {
      return new Observer() {
        @Override
        public void sending(int index, long scheduledNanos) {
          first.sending(index, scheduledNanos);
          second.sending(index, scheduledNanos);
        }

        @Override
        public void completed(RequestTrace trace) {
          first.completed(trace);
          second.completed(trace);
        }
      };
    }
  }

  private final Sender sender;
  private final Runnable cancelInFlight;
  private final Duration grace;
  private final Observer observer;

  /**
   * @param sender         sends one request
   * @param cancelInFlight aborts every request still running (used when the grace period ends)
   * @param grace          how long requests still in flight may finish after sending stopped
   * @param observer       told of every send and completion
   */
  public LoadRunner(Sender sender, Runnable cancelInFlight, Duration grace, Observer observer) {
    this.sender = sender;
    this.cancelInFlight = cancelInFlight;
    this.grace = grace;
    this.observer = observer;
  }

  /** Sends {@code load} until {@code budget} says stop; {@code seed} draws an open loop's arrivals. */
  public Outcome run(LoadShape load, Budget budget, long seed) {
    return run(load, budget, seed, null);
  }

  /**
   * Sends {@code load} until {@code budget} says stop; an open loop's requests are due when {@code arrivals}
   * says (sending stops where it ends), or, when it is null, after gaps drawn with {@code seed}.
   */
  public Outcome run(LoadShape load, Budget budget, long seed, Arrivals arrivals) {
    Schedule schedule = load.match(c -> new Schedule(c.concurrency(), null, null),
        o -> new Schedule(o.maxConcurrency().orElse(0), arrivals != null ? null : new GammaDistribution(new Well19937c(seed),
            o.burstiness(), 1.0 / (o.rate().perSecond() * o.burstiness())), arrivals));
    return new Run(schedule, budget).go();
  }

  /**
   * When requests are due: closed loop ({@code gaps} null) whenever fewer than {@code cap} are in flight;
   * open loop at the sum of gaps drawn from Gamma(shape = burstiness, scale = 1 / (rate x burstiness)), as
   * vLLM draws them (burstiness 1 is Poisson), waiting for a free slot when {@code cap > 0}; the wait is
   * the request's queue time.
   */
  private record Schedule(int cap, GammaDistribution gaps, Arrivals arrivals) {
    boolean closed() {
      return gaps == null && arrivals == null;
    }

    /** When request {@code index} is due, given when the one before it was; Long.MAX_VALUE past the schedule's end. */
    long due(int index, long begin, long previous) {
      if (arrivals == null) return index == 0 ? begin : previous + (long) (gaps.sample() * 1e9);
      long offset = arrivals.offsetNanos(index);
      return offset < 0 ? Long.MAX_VALUE : begin + offset;
    }
  }

  /** A request that was due while every slot was taken. */
  private record Queued(int index, long scheduledNanos) {}

  /** One run: its state is confined to the calling thread; completions arrive through a queue. */
  private final class Run {
    private final Schedule schedule;
    private final Budget budget;
    private final BlockingQueue<RequestTrace> completions = new LinkedBlockingQueue<>();
    private final List<RequestTrace> done = new ArrayList<>();
    private final ArrayDeque<Queued> waiting = new ArrayDeque<>();
    private final long begin = System.nanoTime();
    private final long sendingEnds;
    private int issued;
    private int inFlight;
    private long nextDue;
    private long stoppedAt = Long.MAX_VALUE;
    private long cancelledAt = Long.MAX_VALUE;

    Run(Schedule schedule, Budget budget) {
      this.schedule = schedule;
      this.budget = budget;
      this.sendingEnds = budget.timeLimit().map(d -> begin + d.toNanos()).orElse(Long.MAX_VALUE);
      this.nextDue = schedule.closed() ? begin : schedule.due(0, begin, begin);
    }

    Outcome go() {
      try {
        loop();
      } catch (InterruptedException e) {
        cancelledAt = System.nanoTime();
        cancelInFlight.run();
        drainAfterCancel(Duration.ofSeconds(5));
        Thread.currentThread().interrupt();
      }
      return new Outcome(cancelledMarked(done, cancelledAt, stoppedAt, grace), budget.stopReason());
    }

    private void loop() throws InterruptedException {
      while (true) {
        long now = System.nanoTime();
        if (stoppedAt == Long.MAX_VALUE) issueWhatIsDue(now);
        startQueued(System.nanoTime());
        if (stoppedAt != Long.MAX_VALUE && inFlight == 0 && waiting.isEmpty()) return;
        long graceEnds = stoppedAt == Long.MAX_VALUE ? Long.MAX_VALUE : stoppedAt + grace.toNanos();
        now = System.nanoTime();
        if (now - graceEnds >= 0) {
          waiting.clear(); // due but never sent: not requests of this level
          cancelledAt = now;
          cancelInFlight.run();
          drainAfterCancel(AFTER_CANCEL);
          return;
        }
        long wakeAt = graceEnds; // Long.MAX_VALUE: no time to wake at, only a completion
        if (stoppedAt == Long.MAX_VALUE) {
          if (now - sendingEnds < 0) wakeAt = Math.min(wakeAt, sendingEnds);
          if (!schedule.closed()) wakeAt = Math.min(wakeAt, nextDue);
        }
        RequestTrace t = wakeAt == Long.MAX_VALUE ? completions.take()
            : completions.poll(Math.max(0, wakeAt - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (t != null) completed(t);
        while ((t = completions.poll()) != null) completed(t);
      }
    }

    /** Sends what is due now, until the budget says stop. */
    private void issueWhatIsDue(long now) {
      if (schedule.closed()) {
        while (inFlight < schedule.cap()) {
          if (!budget.mayIssue(issued, Duration.ofNanos(System.nanoTime() - begin))) {
            stop();
            return;
          }
          send(issued++, System.nanoTime());
        }
        if (now - sendingEnds >= 0 && !budget.mayIssue(issued, Duration.ofNanos(now - begin))) stop();
        return;
      }
      if (nextDue == Long.MAX_VALUE) { // the schedule has ended: nothing more is due
        stop();
        return;
      }
      while (nextDue - System.nanoTime() <= 0) {
        if (!budget.mayIssue(issued, Duration.ofNanos(nextDue - begin))) {
          stop();
          return;
        }
        if (schedule.cap() > 0 && inFlight >= schedule.cap()) {
          waiting.add(new Queued(issued, nextDue));
        } else {
          send(issued, nextDue);
        }
        issued++;
        nextDue = schedule.due(issued, begin, nextDue);
        if (nextDue == Long.MAX_VALUE) {
          stop();
          return;
        }
      }
      // A timed budget stops at its limit even when the next arrival is far off.
      if (now - sendingEnds >= 0 && !budget.mayIssue(issued, Duration.ofNanos(now - begin))) stop();
    }

    /** Requests that waited for a slot go as slots free up, their wait counted as queue time. */
    private void startQueued(long now) {
      while (!waiting.isEmpty() && inFlight < schedule.cap()) {
        Queued q = waiting.poll();
        send(q.index(), q.scheduledNanos());
      }
    }

    private void stop() {
      if (stoppedAt == Long.MAX_VALUE) stoppedAt = System.nanoTime();
    }

    private void send(int index, long scheduledNanos) {
      inFlight++;
      observer.sending(index, scheduledNanos);
      CompletableFuture<RequestTrace> f;
      try {
        f = sender.send(index, scheduledNanos);
      } catch (RuntimeException e) {
        inFlight--;
        throw e;
      }
      f.whenComplete((t, e) -> {
        if (t != null) completions.add(t);
      });
    }

    private void completed(RequestTrace t) {
      inFlight--;
      done.add(t);
      budget.completed(t);
      observer.completed(t);
    }

    /** After a cancel, every request still in flight reports back at once; waits for them, within {@code limit}. */
    private void drainAfterCancel(Duration limit) {
      long until = System.nanoTime() + limit.toNanos();
      try {
        while (inFlight > 0) {
          long left = until - System.nanoTime();
          if (left <= 0) return;
          RequestTrace t = completions.poll(left, TimeUnit.NANOSECONDS);
          if (t == null) return;
          completed(t);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The traces of a level that was cancelled at {@code cancelledAt} (never, when {@code Long.MAX_VALUE}), with
   * the requests the cancel cut marked cancelled and why: the run was stopped, or the grace period after
   * sending stopped at {@code stoppedAt} ended.
   */
  static List<RequestTrace> cancelledMarked(List<RequestTrace> done, long cancelledAt, long stoppedAt, Duration grace) {
    List<RequestTrace> traces = new ArrayList<>(done);
    if (cancelledAt != Long.MAX_VALUE) {
      String why = stoppedAt == Long.MAX_VALUE ? "still running when the run was stopped"
          : "still running when the grace period ended (" + Formats.duration(grace) + " after sending stopped)";
      traces.replaceAll(t -> !t.succeeded() && (t.failure().kind() == ErrorKind.CANCELLED || t.endNanos() >= cancelledAt)
          ? t.cancelled(why) : t);
    }
    return List.copyOf(traces);
  }
}
