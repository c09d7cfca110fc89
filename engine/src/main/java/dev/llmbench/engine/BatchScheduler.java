package dev.llmbench.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A continuous-batching loop: each step admits waiting sequences up to the batch limit, sleeps for the
 * profile's step time, then advances every running sequence by one chunk.
 *
 * <p>On top of the profile: prompt tokens the {@link PrefixCache} serves cost no prefill; every step is
 * {@code slowdown} times the profile's; and the first step at a batch size in a CUDA-graph bucket never run
 * before takes {@code coldBatchStall} longer (see {@link #captureBucket}).
 */
final class BatchScheduler implements AutoCloseable {

  private static final long SPIN_NANOS = 200_000;
  private static final long MAX_LAG_NANOS = 5_000_000;

  private final PerformanceProfile profile;
  private final double slowdown;
  private final long coldBatchStallNanos;
  private final PrefixCache prefixCache;
  private final Set<Integer> warmBuckets = new HashSet<>();
  private final List<Integer> stalledBuckets = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Sequence> waiting = new LinkedBlockingQueue<>();
  private final List<Sequence> running = new ArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;

  final AtomicLong promptTokensTotal = new AtomicLong();
  final AtomicLong generationTokensTotal = new AtomicLong();
  final AtomicLong requestsFinished = new AtomicLong();
  final AtomicLong steps = new AtomicLong();
  final AtomicLong coldStalls = new AtomicLong();
  final AtomicLong prefixCacheQueries = new AtomicLong();
  final AtomicLong prefixCacheHits = new AtomicLong();
  private volatile int runningCount;
  private volatile long nextStepEnd;

  /** @param prefixCache null when prefix caching is off */
  BatchScheduler(PerformanceProfile profile, double slowdown, Duration coldBatchStall, PrefixCache prefixCache) {
    this.profile = profile;
    this.slowdown = slowdown;
    this.coldBatchStallNanos = coldBatchStall.toNanos();
    this.prefixCache = prefixCache;
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
          if (s.generated() == 0) admittedPromptTokens += s.promptTokens - s.cachedTokens;
        }
        Sequence next;
        while (running.size() < profile.maxBatch() && (next = waiting.poll()) != null) {
          admit(next, admitted);
          admittedPromptTokens += next.promptTokens - next.cachedTokens;
        }
        running.removeIf(Sequence::isCancelled);
        runningCount = running.size();
        if (running.isEmpty()) continue;
        // Deadlines chain from the last one, so sleep jitter never accumulates into drift; after a
        // long stall (GC, a busy host) the chain restarts rather than bursting steps to catch up.
        stepEnd = Math.max(stepEnd, System.nanoTime() - MAX_LAG_NANOS);
        stepEnd += stepNanos(running.size(), admittedPromptTokens);
        nextStepEnd = stepEnd;
        runningCount = running.size();
        // Announced only now, so that an HTTP thread that reads the role chunk already sees this step's end.
        admitted.forEach(a -> a.events.add(Sequence.Event.ADMITTED));
        sleepUntil(stepEnd);
        steps.incrementAndGet();
        for (Iterator<Sequence> it = running.iterator(); it.hasNext(); ) {
          Sequence s = it.next();
          if (s.step(profile.tokensPerChunk(), this::count)) it.remove();
        }
        runningCount = running.size();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private long stepNanos(int batch, long prefillTokens) {
    long nanos = profile.stepTime(batch, prefillTokens).toNanos();
    if (slowdown != 1.0) nanos = Math.round(nanos * slowdown);
    if (coldBatchStallNanos > 0 && warmBuckets.add(captureBucket(batch))) {
      stalledBuckets.add(captureBucket(batch));
      coldStalls.incrementAndGet();
      nanos += coldBatchStallNanos;
    }
    return nanos;
  }

  /** The buckets that paid the cold stall, in order. */
  List<Integer> stalledBuckets() {
    return List.copyOf(stalledBuckets);
  }

  /**
   * The CUDA-graph capture size a batch runs at: vLLM's default sizes are 1, 2, 4, then multiples of 8 below
   * 256, then multiples of 16 up to {@code max_cudagraph_capture_size} (512 by default), and a batch is padded
   * up to the next size (vllm/config/vllm.py {@code _set_cudagraph_sizes}, documented on
   * {@code cudagraph_capture_sizes} in vllm/config/compilation.py). Larger batches run eagerly: one bucket.
   */
  static int captureBucket(int batch) {
    if (batch <= 1) return 1;
    if (batch <= 2) return 2;
    if (batch <= 4) return 4;
    if (batch <= 256) return (batch + 7) / 8 * 8;
    if (batch <= 512) return 256 + (batch - 256 + 15) / 16 * 16;
    return Integer.MAX_VALUE;
  }

  private void count(int generated, boolean finished) {
    generationTokensTotal.addAndGet(generated);
    if (finished) requestsFinished.incrementAndGet();
  }

  private void admit(Sequence s, List<Sequence> admitted) {
    if (prefixCache != null) {
      s.cachedTokens = prefixCache.admit(s.blockHashes, s.promptTokens);
      prefixCacheQueries.addAndGet(s.promptTokens);
      prefixCacheHits.addAndGet(s.cachedTokens);
    }
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
