package dev.llmbench.internal.embedded;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A continuous-batching loop: each step admits waiting sequences up to the batch limit, sleeps for the
 * profile's step time, then advances every running sequence by one chunk.
 */
final class BatchScheduler implements AutoCloseable {

  private static final long SPIN_NANOS = 200_000;
  private static final long MAX_LAG_NANOS = 5_000_000;

  private final PerformanceProfile profile;
  private final BlockingQueue<Sequence> waiting = new LinkedBlockingQueue<>();
  private final List<Sequence> running = new ArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;

  final AtomicLong promptTokensTotal = new AtomicLong();
  final AtomicLong generationTokensTotal = new AtomicLong();
  final AtomicLong requestsFinished = new AtomicLong();
  final AtomicLong steps = new AtomicLong();
  private volatile int runningCount;
  private volatile long nextStepEnd;

  BatchScheduler(PerformanceProfile profile) {
    this.profile = profile;
    this.thread = new Thread(this::loop, "llmbench-embedded-scheduler");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  void submit(Sequence sequence) {
    waiting.add(sequence);
  }

  int runningCount() {
    return runningCount;
  }

  /**
   * The next event of {@code s}. With a single sequence running, the HTTP thread spins through the last
   * moments of the step instead of parking, so that delivering the token costs no thread wake-up (about
   * a millisecond on small VMs); with more, parking is cheaper than several threads spinning.
   */
  Sequence.Event nextEvent(Sequence s) throws InterruptedException {
    Sequence.Event e = s.events.poll();
    if (e != null) return e;
    if (runningCount == 1) {
      long spinFrom = nextStepEnd - SPIN_NANOS;
      long wait = spinFrom - System.nanoTime();
      if (wait > 0 && (e = s.events.poll(wait, TimeUnit.NANOSECONDS)) != null) return e;
      long giveUp = System.nanoTime() + 2 * SPIN_NANOS;
      while (System.nanoTime() - giveUp < 0) {
        if ((e = s.events.poll()) != null) return e;
        Thread.onSpinWait();
      }
    }
    return s.events.take();
  }

  int waitingCount() {
    return waiting.size();
  }

  private void loop() {
    long stepEnd = 0;
    List<Sequence> admitted = new ArrayList<>();
    while (!stopped) {
      try {
        admitted.clear();
        if (running.isEmpty()) {
          Sequence first = waiting.poll(50, TimeUnit.MILLISECONDS);
          if (first == null) continue;
          admit(first, admitted);
          // A new busy period starts when the request arrived, not when this thread woke up to it: the
          // hand-off between threads is the simulator's cost, not the profile's.
          stepEnd = first.arrivalNanos;
        }
        long admittedPromptTokens = 0;
        for (Sequence s : running) {
          if (s.generated() == 0) admittedPromptTokens += s.promptTokens;
        }
        Sequence next;
        while (running.size() < profile.maxBatch() && (next = waiting.poll()) != null) {
          admit(next, admitted);
          admittedPromptTokens += next.promptTokens;
        }
        running.removeIf(Sequence::isCancelled);
        runningCount = running.size();
        if (running.isEmpty()) continue;
        // Deadlines chain from the last one, so sleep jitter never accumulates into drift; after a
        // long stall (GC, a busy host) the chain restarts rather than bursting steps to catch up.
        stepEnd = Math.max(stepEnd, System.nanoTime() - MAX_LAG_NANOS);
        stepEnd += profile.stepTime(running.size(), admittedPromptTokens).toNanos();
        nextStepEnd = stepEnd;
        runningCount = running.size();
        // Announced only now, so that an HTTP thread that reads the role chunk already sees this step's end.
        admitted.forEach(a -> a.events.add(Sequence.Event.ADMITTED));
        sleepUntil(stepEnd);
        steps.incrementAndGet();
        for (Iterator<Sequence> it = running.iterator(); it.hasNext(); ) {
          Sequence s = it.next();
          int before = s.generated();
          boolean done = s.step(profile.tokensPerChunk());
          generationTokensTotal.addAndGet(s.generated() - before);
          if (done) {
            it.remove();
            requestsFinished.incrementAndGet();
          }
        }
        runningCount = running.size();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void admit(Sequence s, List<Sequence> admitted) {
    running.add(s);
    admitted.add(s);
    promptTokensTotal.addAndGet(s.promptTokens);
  }

  private static void sleepUntil(long deadline) {
    long remaining;
    while ((remaining = deadline - System.nanoTime()) > SPIN_NANOS) {
      LockSupport.parkNanos(remaining - SPIN_NANOS);
    }
    while (deadline - System.nanoTime() > 0) Thread.onSpinWait();
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
  }
}
