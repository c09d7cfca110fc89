package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A thread's scheduling counters as Linux keeps them in {@code /proc/<pid>/task/<tid>/schedstat}: time on a core,
 * time ready to run but waiting for one (the run-queue wait), and how many times it got one. The CPU a thread got
 * cannot tell a thread that wanted no more from one that other processes kept waiting; its wait can.
 *
 * @param runNanos  time on a core
 * @param waitNanos time ready to run but waiting for a core
 * @param runs      times it got a core
 */
@API(status = INTERNAL)
public record SchedStat(long runNanos, long waitNanos, long runs) {

  /** The calling thread's schedstat file, to {@link #read} again later from any thread; empty off Linux. */
  public static Optional<Path> ofCurrentThread() {
    try {
      return Optional.of(Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self"))).resolve("schedstat"));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The counters in {@code file}; empty when it cannot be read (off Linux, or the thread has ended). */
  public static Optional<SchedStat> read(Path file) {
    try {
      String[] f = Files.readString(file).trim().split(" ");
      return Optional.of(new SchedStat(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** What happened between {@code earlier} and this, each counter at least 0. */
  public SchedStat since(SchedStat earlier) {
    return new SchedStat(Math.max(0, runNanos - earlier.runNanos), Math.max(0, waitNanos - earlier.waitNanos),
        Math.max(0, runs - earlier.runs));
  }

  /** The counters of this and {@code other} added up. */
  public SchedStat plus(SchedStat other) {
    return new SchedStat(runNanos + other.runNanos, waitNanos + other.waitNanos, runs + other.runs);
  }
}
