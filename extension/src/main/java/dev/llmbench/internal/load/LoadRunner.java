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
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
  /** At most this many requests are made ahead of their due times, */
  private static final int AHEAD = 64;
  /** holding at most this many bytes (a trace's prompts can be long), */
  private static final long AHEAD_BYTES = 8L << 20;
  /** and one is made only when the next due request is at least this far off (plus twice what making one takes). */
  private static final long AHEAD_MARGIN = TimeUnit.MICROSECONDS.toNanos(200);

  /** Sends request number {@code index}, meant to go at {@code scheduledNanos}, without waiting for it. */
  @FunctionalInterface
  public interface Sender {
    /** The future completes when the request ends, and never exceptionally: a failure is in its trace. */
    CompletableFuture<RequestTrace> send(int index, long scheduledNanos);

    /**
     * Makes request {@code index} ready before it is due (its prompt, its body's bytes), so that at its due time
     * sending it only hands bytes to the transport. By default nothing is made ahead.
     */
    default Prepared prepare(int index) {
      return scheduledNanos -> send(index, scheduledNanos);
    }
  }

  /** A request made before it is due; {@link #send} hands it over. */
  @FunctionalInterface
  public interface Prepared {
    /** Sends it, meant to go at {@code scheduledNanos}; as {@link Sender#send}. */
    CompletableFuture<RequestTrace> send(long scheduledNanos);

    /** The bytes it holds until it is sent: what a run's look-ahead counts against its limit. */
    default long bytes() {
      return 0;
    }
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

  /**
   * A request not yet sent: its index, when it is due (0 in a closed loop, where it goes when a slot frees up)
   * and, once made ahead, its request ready to go (or why making it failed, thrown when it is sent).
   */
  private static final class Upcoming {
    final int index;
    final long due;
    Prepared ready;
    RuntimeException failed;

    Upcoming(int index, long due) {
      this.index = index;
      this.due = due;
    }
  }

  /** One run: its state is confined to the calling thread; completions arrive through a queue. */
  private final class Run {
    private final Schedule schedule;
    private final Budget budget;
    /**
     * Completions, from the event loops. Lock-free, and the run's thread parks on its own: a queue with a lock
     * would make it wait, at a due time, for an event loop preempted while holding that lock (on a busy machine,
     * a whole round of the scheduler).
     */
    private final Queue<RequestTrace> completions = new ConcurrentLinkedQueue<>();
    private final Thread thread = Thread.currentThread();
    private volatile boolean parked;
    private final List<RequestTrace> done = new ArrayList<>();
    /** Requests that were due while every slot was taken, in order. */
    private final ArrayDeque<Upcoming> waiting = new ArrayDeque<>();
    /** The next requests to issue, in order, their due times drawn; the first {@code ready} of them made ahead. */
    private final ArrayDeque<Upcoming> upcoming = new ArrayDeque<>();
    private final long begin = System.nanoTime();
    private final long sendingEnds;
    private int issued;
    private int planned; // the index after the last upcoming request
    private long lastDue;
    private boolean scheduleEnded;
    private int ready;
    private long readyBytes;
    /** How long making a request ahead took lately (decaying): a request is made ahead only when this much is free. */
    private long prepareNanos;
    private int inFlight;
    private long stoppedAt = Long.MAX_VALUE;
    private long cancelledAt = Long.MAX_VALUE;

    Run(Schedule schedule, Budget budget) {
      this.schedule = schedule;
      this.budget = budget;
      this.sendingEnds = budget.timeLimit().map(d -> begin + d.toNanos()).orElse(Long.MAX_VALUE);
      this.lastDue = begin;
      next();
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
        if (stoppedAt == Long.MAX_VALUE) prepareAhead();
        long wakeAt = graceEnds; // Long.MAX_VALUE: no time to wake at, only a completion
        if (stoppedAt == Long.MAX_VALUE) {
          if (now - sendingEnds < 0) wakeAt = Math.min(wakeAt, sendingEnds);
          Upcoming next = schedule.closed() ? null : next();
          if (next != null) wakeAt = Math.min(wakeAt, next.due);
        }
        RequestTrace t = await(wakeAt);
        if (t != null) completed(t);
        while ((t = completions.poll()) != null) completed(t);
      }
    }

    /** The next completion, or null once {@code wakeAt} has come ({@code Long.MAX_VALUE}: only a completion ends the wait). */
    private RequestTrace await(long wakeAt) throws InterruptedException {
      while (true) {
        RequestTrace t = completions.poll();
        if (t != null) return t;
        long left = wakeAt == Long.MAX_VALUE ? Long.MAX_VALUE : wakeAt - System.nanoTime();
        if (left <= 0) return null;
        parked = true;
        t = completions.poll(); // one may have come before parked was seen: it would not unpark
        if (t != null) {
          parked = false;
          return t;
        }
        if (left == Long.MAX_VALUE) {
          LockSupport.park(this);
        } else {
          LockSupport.parkNanos(this, left);
        }
        parked = false;
        if (Thread.interrupted()) throw new InterruptedException();
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
          send(take(), System.nanoTime());
          issued++;
        }
        if (now - sendingEnds >= 0 && !budget.mayIssue(issued, Duration.ofNanos(now - begin))) stop();
        return;
      }
      Upcoming next = next();
      if (next == null) { // the schedule has ended: nothing more is due
        stop();
        return;
      }
      while (next.due - System.nanoTime() <= 0) {
        if (!budget.mayIssue(issued, Duration.ofNanos(next.due - begin))) {
          stop();
          return;
        }
        Upcoming u = take();
        if (schedule.cap() > 0 && inFlight >= schedule.cap()) {
          waiting.add(u);
        } else {
          send(u, u.due);
        }
        issued++;
        next = next();
        if (next == null) {
          stop();
          return;
        }
      }
      // A timed budget stops at its limit even when the next arrival is far off.
      if (now - sendingEnds >= 0 && !budget.mayIssue(issued, Duration.ofNanos(now - begin))) stop();
    }

    /** The next request to issue, its due time drawn; null when the schedule has ended. */
    private Upcoming next() {
      if (upcoming.isEmpty() && !plan()) return null;
      return upcoming.peekFirst();
    }

    /** Takes the next request to issue off the upcoming ones. */
    private Upcoming take() {
      Upcoming u = next();
      upcoming.pollFirst();
      if (u.ready != null || u.failed != null) {
        ready--;
        if (u.ready != null) readyBytes -= u.ready.bytes();
      }
      return u;
    }

    /** Draws the due time of one more request; false when the schedule has ended. */
    private boolean plan() {
      if (scheduleEnded) return false;
      long due = schedule.closed() ? 0 : schedule.due(planned, begin, lastDue);
      if (due == Long.MAX_VALUE) {
        scheduleEnded = true;
        return false;
      }
      lastDue = due;
      upcoming.addLast(new Upcoming(planned++, due));
      return true;
    }

    /**
     * While nothing is due, makes the next requests ready (prompt and body), so that at its due time a request
     * only goes to the transport: peers build every request before the clock starts; a trace can be far larger
     * than memory, so here at most {@link #AHEAD} requests or {@link #AHEAD_BYTES} are made ahead. One is made only
     * when the next due request leaves time for it; a closed loop makes one, the request the next free slot takes.
     */
    private void prepareAhead() {
      while (true) {
        boolean first = ready == 0;
        if (!first && (schedule.closed() || ready >= AHEAD || readyBytes >= AHEAD_BYTES)) return;
        if (upcoming.size() <= ready && !plan()) return;
        long start = System.nanoTime();
        if (!first && upcoming.peekFirst().due - start < AHEAD_MARGIN + 2 * prepareNanos) return;
        Upcoming u = nth(ready);
        try {
          u.ready = sender.prepare(u.index);
          readyBytes += u.ready.bytes();
        } catch (RuntimeException e) { // thrown when it is sent: a request the budget never sends must not fail the run
          u.failed = e;
        }
        ready++;
        long took = System.nanoTime() - start;
        prepareNanos = Math.max(took, prepareNanos - (prepareNanos >> 3));
        if (!completions.isEmpty()) return; // completions are taken first: they free slots and tell the budget
      }
    }

    /** The {@code n}th upcoming request, from 0; the look-ahead is short, so a walk is cheap. */
    private Upcoming nth(int n) {
      var it = upcoming.iterator();
      for (int i = 0; i < n; i++) it.next();
      return it.next();
    }

    /** Requests that waited for a slot go as slots free up, their wait counted as queue time. */
    private void startQueued(long now) {
      while (!waiting.isEmpty() && inFlight < schedule.cap()) {
        Upcoming q = waiting.poll();
        send(q, q.due);
      }
    }

    private void stop() {
      if (stoppedAt == Long.MAX_VALUE) stoppedAt = System.nanoTime();
    }

    private void send(Upcoming u, long scheduledNanos) {
      inFlight++;
      observer.sending(u.index, scheduledNanos);
      CompletableFuture<RequestTrace> f;
      try {
        if (u.failed != null) throw u.failed;
        f = u.ready != null ? u.ready.send(scheduledNanos) : sender.send(u.index, scheduledNanos);
      } catch (RuntimeException e) {
        inFlight--;
        throw e;
      }
      u.ready = null; // its bytes are the transport's now
      f.whenComplete((t, e) -> {
        if (t == null) return;
        completions.add(t);
        if (parked) LockSupport.unpark(thread);
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
          RequestTrace t = await(until);
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
