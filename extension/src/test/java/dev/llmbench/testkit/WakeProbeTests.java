package dev.llmbench.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * What the timing tests take off a lag is the process's stall, never a thread's own slowness: a JVM stopped for
 * 300 ms (SIGSTOP, then SIGCONT from a shell) counts as stalled, a thread that takes 300 ms by itself does not.
 */
class WakeProbeTests {

  static final long PAUSE = 300_000_000;

  @Test
  @DisabledOnOs(OS.WINDOWS)
  void aStoppedProcessIsAStallAndASlowThreadIsNot() {
    long pid = ProcessHandle.current().pid();
    WakeProbe.during(() -> {
      WakeProbe probe = WakeProbe.current();
      // A thread slow by itself: the probe woke on time meanwhile. The best of three, as a loaded machine's
      // stalls only add.
      long slowThreadStalled = Long.MAX_VALUE;
      for (int i = 0; i < 3; i++) {
        long from = System.nanoTime();
        LockSupport.parkNanos(PAUSE);
        slowThreadStalled = Math.min(slowThreadStalled, probe.stalledBetween(from, System.nanoTime()));
      }
      assertThat(slowThreadStalled / 1e6).as("ms of a 300 ms park counted as the process's stall").isLessThan(PAUSE / 2e6);
      // The whole process stopped: no thread of it, the probe's included, ran for at least 300 ms.
      long from = System.nanoTime();
      stopFor(pid, "0.3");
      long stalled = probe.stalledBetween(from, System.nanoTime());
      assertThat(stalled / 1e6).as("ms of a 300 ms stop counted as the process's stall").isGreaterThan(PAUSE / 1e6 - 2);
      return null;
    });
  }

  /** Stops this JVM for {@code seconds} from a shell, which then continues it; returns once it has. */
  private static void stopFor(long pid, String seconds) {
    try {
      Process shell = new ProcessBuilder("sh", "-c", "kill -STOP " + pid + "; sleep " + seconds + "; kill -CONT " + pid)
          .inheritIO().start();
      assertThat(shell.waitFor()).as("the shell's exit code").isZero();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
