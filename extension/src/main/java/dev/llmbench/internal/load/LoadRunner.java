package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ErrorKind;
import dev.llmbench.LoadShape;
import dev.llmbench.RequestFailure;
import dev.llmbench.StopReason;
import dev.llmbench.internal.client.RequestTrace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apiguardian.api.API;

/**
 * Sends a level's requests, closed loop (exactly C in flight) or open loop (arrivals at a rate), and
 * returns every trace, failed ones included. Results gathered before an interruption are kept.
 */
@API(status = INTERNAL)
public final class LoadRunner {

  /** Sends request number {@code index}, meant to go at {@code scheduledNanos}. */
  @FunctionalInterface
  public interface Sender {
    RequestTrace send(int index, long scheduledNanos);
  }

  /** What a run produced. */
  public record Outcome(List<RequestTrace> traces, StopReason stopReason) {}

  /**
   * Watches a run as it goes (progress lines, the client's own load): called on the sending threads, so
   * it must be quick and thread-safe.
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
   * @param cancelInFlight aborts every request still running (used when a duration-bounded level's grace ends)
   * @param grace          how long requests still in flight may finish after sending stopped
   * @param observer       told of every send and completion
   */
  public LoadRunner(Sender sender, Runnable cancelInFlight, Duration grace, Observer observer) {
    this.sender = sender;
    this.cancelInFlight = cancelInFlight;
    this.grace = grace;
    this.observer = observer;
  }

  private RequestTrace send(int index, long scheduledNanos) {
    observer.sending(index, scheduledNanos);
    RequestTrace trace = sender.send(index, scheduledNanos);
    observer.completed(trace);
    return trace;
  }

  /** Sends {@code load} until {@code budget} says stop; {@code seed} draws an open loop's arrivals. */
  public Outcome run(LoadShape load, Budget budget, long seed) {
    return load.match(c -> closedLoop(c.concurrency(), budget),
        o -> openLoop(o.rate().perSecond(), o.burstiness(), o.maxConcurrency().orElse(0), seed, budget));
  }

  /** Closed loop: {@code concurrency} workers, each sending its next request as soon as the last one ends. */
  private Outcome closedLoop(int concurrency, Budget budget) {
    List<RequestTrace> done = new ArrayList<>();
    AtomicInteger issued = new AtomicInteger();
    long begin = System.nanoTime();
    ExecutorService workers = Executors.newFixedThreadPool(concurrency, daemon("llmbench-closed-loop"));
    CountDownLatch stoppedSending = new CountDownLatch(1);
    for (int w = 0; w < concurrency; w++) {
      workers.execute(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          int index;
          synchronized (issued) {
            if (!budget.mayIssue(issued.get(), Duration.ofNanos(System.nanoTime() - begin))) {
              stoppedSending.countDown();
              return;
            }
            index = issued.getAndIncrement();
          }
          RequestTrace trace = send(index, System.nanoTime());
          synchronized (done) {
            done.add(trace);
            budget.completed(trace);
          }
        }
      });
    }
    return finish(workers, done, budget, stoppedSending, begin);
  }

  /**
   * Open loop: request {@code i} is due at the sum of {@code i} gaps drawn from Gamma(shape = burstiness,
   * scale = 1 / (rate * burstiness)), as vLLM draws them (burstiness 1 is Poisson). With
   * {@code maxConcurrency > 0} a due request waits for a free slot, and the wait is its queue time.
   */
  private Outcome openLoop(double ratePerSecond, double burstiness, int maxConcurrency, long seed, Budget budget) {
    List<RequestTrace> done = new ArrayList<>();
    GammaDistribution gaps = new GammaDistribution(new Well19937c(seed), burstiness, 1.0 / (ratePerSecond * burstiness));
    Semaphore slots = maxConcurrency > 0 ? new Semaphore(maxConcurrency) : null;
    ExecutorService workers = Executors.newCachedThreadPool(daemon("llmbench-open-loop"));
    long begin = System.nanoTime();
    long due = begin;
    for (int i = 0; ; i++) {
      if (i > 0) due += (long) (gaps.sample() * 1e9);
      if (!budget.mayIssue(i, Duration.ofNanos(due - begin))) break;
      sleepUntil(due);
      int index = i;
      long scheduled = due;
      workers.execute(() -> {
        try {
          if (slots != null) slots.acquire();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        try {
          RequestTrace trace = send(index, scheduled);
          synchronized (done) {
            done.add(trace);
            budget.completed(trace);
          }
        } finally {
          if (slots != null) slots.release();
        }
      });
    }
    return finish(workers, done, budget, new CountDownLatch(0), begin); // the schedule above has stopped sending
  }

  /**
   * Waits until sending has stopped (the budget said no, or its time limit passed), then up to the grace
   * period for requests in flight, then cancels them.
   */
  private Outcome finish(ExecutorService workers, List<RequestTrace> done, Budget budget, CountDownLatch stoppedSending,
      long begin) {
    workers.shutdown();
    long sendingEnds = budget.timeLimit().map(d -> begin + d.toNanos()).orElse(Long.MAX_VALUE);
    long cancelledAt = Long.MAX_VALUE;
    try {
      while (!stoppedSending.await(20, TimeUnit.MILLISECONDS) && !workers.isTerminated()
          && System.nanoTime() - sendingEnds < 0) {
        // Sending goes on; a count budget ends when its requests are sent, a timed one at its limit.
      }
      if (!workers.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
        cancelledAt = System.nanoTime();
        cancelInFlight.run();
        workers.awaitTermination(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancelledAt = System.nanoTime();
      cancelInFlight.run();
      workers.shutdownNow();
    }
    List<RequestTrace> traces;
    synchronized (done) {
      traces = new ArrayList<>(done);
    }
    if (cancelledAt != Long.MAX_VALUE) {
      long at = cancelledAt;
      traces.replaceAll(t -> !t.succeeded() && t.endNanos() >= at ? cancelled(t) : t);
    }
    return new Outcome(List.copyOf(traces), budget.stopReason());
  }

  private static RequestTrace cancelled(RequestTrace t) {
    return new RequestTrace(t.scheduledNanos(), t.startNanos(), t.startedAt(), t.endNanos(), t.chunks(), t.content(),
        t.reasoning(), t.finishReason(), t.usage(), t.serverTimings(), t.promptTokensEstimate(), t.streamed(),
        new RequestFailure(ErrorKind.CANCELLED, 0, "still running when the grace period ended"));
  }

  private static void sleepUntil(long deadline) {
    long remaining;
    while ((remaining = deadline - System.nanoTime()) > 0) LockSupport.parkNanos(remaining);
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
