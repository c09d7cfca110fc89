package dev.llmbench.internal.core;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.result.ClientLoad;
import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Watches the client while a level runs: the CPU of the threads that send and read requests (the level's
 * own thread, read when told of a send and of a completion, and the client's I/O event loops, which parse
 * every stream), how long those threads waited for a core, the whole JVM's CPU, the whole machine's CPU (from {@code /proc/stat} at the level's start
 * and end on Linux, every process included; else the JVM's sampled {@code getCpuLoad()}), events read, and a
 * probe thread that asks to wake every 2 ms and records how late it ran.
 */
final class ClientMonitor implements LoadRunner.Observer {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long PROBE_NANOS = 2_000_000;
  private static final long CPU_SAMPLE_NANOS = 100_000_000;
  private static final long BUCKET_NANOS = 10_000;
  private static final int BUCKETS = 10_000; // 10 µs each: up to 100 ms, the rest in the last
  private static final SchedStat NONE = new SchedStat(0, 0, 0);

  private final ConcurrentHashMap<Long, long[]> cpuByThread = new ConcurrentHashMap<>(); // {first, latest}
  private final LongAdder events = new LongAdder();
  private final LongAdder machineCpu = new LongAdder(); // sum of samples, in millionths
  private final LongAdder machineSamples = new LongAdder();
  private final AtomicLongArray lag = new AtomicLongArray(BUCKETS);
  private final long processCpuStart = processCpu();
  private final long[] machineStart = procStat();
  private final String ioThreads;
  /** The level's own thread (which sends), by its tid; empty off Linux. */
  private final String levelThread = SchedStat.ofCurrentThread().map(f -> f.getParent().getFileName().toString()).orElse("");
  private final Map<String, SchedStat> schedStart;
  private final Map<Long, Long> ioCpuStart;
  private final long wallStart = System.nanoTime();
  private final Thread probe;
  private volatile boolean stopped;
  private volatile long lagMax;

  private ClientMonitor(String ioThreads) {
    this.ioThreads = ioThreads;
    this.schedStart = clientThreads();
    this.ioCpuStart = ioThreadsCpu();
    probe = new Thread(this::probe, "llmbench-lag-probe");
    probe.setDaemon(true);
    probe.start();
  }

  /** @param ioThreads the start of the names of the threads that read this client's streams */
  static ClientMonitor start(String ioThreads) {
    return new ClientMonitor(ioThreads);
  }

  private void probe() {
    long nextCpuSample = System.nanoTime();
    while (!stopped) {
      if (System.nanoTime() - nextCpuSample >= 0) {
        nextCpuSample += CPU_SAMPLE_NANOS;
        double load = machineCpu();
        if (load >= 0) {
          machineCpu.add(Math.round(load * 1e6));
          machineSamples.increment();
        }
      }
      long due = System.nanoTime() + PROBE_NANOS;
      LockSupport.parkNanos(PROBE_NANOS);
      long late = Math.max(0, System.nanoTime() - due);
      lag.incrementAndGet((int) Math.min(BUCKETS - 1, late / BUCKET_NANOS));
      if (late > lagMax) lagMax = late;
    }
  }

  @Override
  public void sending(int index, long scheduledNanos) {
    long now = threadCpu();
    cpuByThread.computeIfAbsent(Thread.currentThread().getId(), k -> new long[] {now, now});
  }

  @Override
  public void completed(RequestTrace trace) {
    long now = threadCpu();
    cpuByThread.compute(Thread.currentThread().getId(), (k, v) -> v == null ? new long[] {now, now} : new long[] {v[0], now});
    events.add(trace.events());
  }

  /** Stops the probe; {@code window} is the level's, first send to last end. */
  ClientLoad stop(Duration window) {
    stopped = true;
    probe.interrupt();
    long wall = Math.max(1, System.nanoTime() - wallStart);
    int cores = Runtime.getRuntime().availableProcessors();
    long io = ioThreadsCpu().entrySet().stream().mapToLong(e -> e.getValue() - ioCpuStart.getOrDefault(e.getKey(), 0L)).sum();
    long client = cpuByThread.values().stream().mapToLong(v -> v[1] - v[0]).sum() + io;
    long process = processCpu() - processCpuStart;
    double windowNanos = Math.max(1, window.toNanos());
    Optional<SchedStat> sched = clientScheduling();
    return new ClientLoad(cores, Duration.ofNanos(client), client / (windowNanos * cores),
        sched.map(t -> t.waitNanos() / (windowNanos * cores)).orElse(Double.NaN),
        Duration.ofNanos(sched.filter(t -> t.runs() > 0).map(t -> t.waitNanos() / t.runs()).orElse(0L)),
        processCpuStart < 0 ? Double.NaN : (double) process / ((double) wall * cores), machineShare(), lag(50), lag(90),
        Duration.ofNanos(lagMax), events.sum() * 1e9 / windowNanos);
  }

  /**
   * How long the client's threads (the level's own thread, which sends, and the event loops, which read every
   * stream) ran, were ready to run but waited for a core, and got one, while the level ran; empty off Linux. The
   * lag probe cannot see the wait: a waking sleeper is put first, while a busy event loop waits behind the other
   * runnable threads.
   */
  private Optional<SchedStat> clientScheduling() {
    Map<String, SchedStat> end = clientThreads();
    if (end.isEmpty()) return Optional.empty();
    // A thread started during the level counts from 0; one that ended took its wait with it (too low, never too high).
    SchedStat sum = NONE;
    for (Map.Entry<String, SchedStat> e : end.entrySet()) {
      sum = sum.plus(e.getValue().since(schedStart.getOrDefault(e.getKey(), NONE)));
    }
    return Optional.of(sum);
  }

  /** The scheduling counters of the level's thread and the client's event loops, by tid; empty off Linux. */
  private Map<String, SchedStat> clientThreads() {
    Map<String, SchedStat> found = new HashMap<>();
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) return found;
    // Linux keeps 15 characters of a thread's name.
    String loops = ioThreads.substring(0, Math.min(15, ioThreads.length()));
    try (Stream<Path> all = Files.list(tasks)) {
      all.forEach(task -> {
        String tid = task.getFileName().toString();
        try {
          if (!tid.equals(levelThread) && !Files.readString(task.resolve("comm")).startsWith(loops)) return;
        } catch (IOException | RuntimeException gone) {
          return; // the thread ended between the listing and the read: its counters are gone with it
        }
        SchedStat.read(task.resolve("schedstat")).ifPresent(stat -> found.put(tid, stat));
      });
    } catch (IOException | RuntimeException e) {
      found.clear();
    }
    return found;
  }

  /**
   * How busy every CPU of the machine was over the level, 0..1: from {@code /proc/stat} (all processes, ours
   * included) when it could be read at both ends, else the mean of the JVM's samples, else NaN.
   */
  private double machineShare() {
    long[] end = procStat();
    if (machineStart != null && end != null && end[1] > machineStart[1]) {
      return (double) (end[0] - machineStart[0]) / (end[1] - machineStart[1]);
    }
    return machineSamples.sum() == 0 ? Double.NaN : machineCpu.sum() / 1e6 / machineSamples.sum();
  }

  /** Busy and total time of all CPUs (in clock ticks) from the first line of /proc/stat, or null off Linux. */
  static long[] procStat() {
    try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/stat"))) {
      String line = r.readLine();
      if (line == null || !line.startsWith("cpu ")) return null;
      String[] f = line.trim().split("\\s+");
      long total = 0;
      // user nice system idle iowait irq softirq steal (guest time is already in user)
      for (int i = 1; i <= Math.min(8, f.length - 1); i++) total += Long.parseLong(f[i]);
      long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
      return new long[] {total - idle, total};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The upper edge of the bucket holding the {@code p}-th percentile of the probe's lateness. */
  private Duration lag(double p) {
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) total += lag.get(i);
    if (total == 0) return Duration.ZERO;
    long rank = (long) Math.ceil(p / 100 * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += lag.get(i);
      if (seen >= rank) return Duration.ofNanos(i == BUCKETS - 1 ? lagMax : (i + 1) * BUCKET_NANOS);
    }
    return Duration.ofNanos(lagMax);
  }

  private static long threadCpu() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  /** The machine's recent CPU use, 0..1, or negative when the JVM cannot tell. */
  private static double machineCpu() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getCpuLoad() : -1;
  }

  private static long processCpu() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
  }

  /** CPU time of each of the client's I/O threads now, by thread id; a thread started later began at 0. */
  private Map<Long, Long> ioThreadsCpu() {
    Map<Long, Long> cpu = new HashMap<>();
    if (!THREADS.isThreadCpuTimeSupported() || !THREADS.isThreadCpuTimeEnabled()) return cpu;
    for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (t == null || !t.getThreadName().startsWith(ioThreads)) continue;
      long nanos = THREADS.getThreadCpuTime(t.getThreadId());
      if (nanos >= 0) cpu.put(t.getThreadId(), nanos);
    }
    return cpu;
  }
}
