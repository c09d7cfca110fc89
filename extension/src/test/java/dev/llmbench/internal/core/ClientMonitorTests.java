package dev.llmbench.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The client's CPU is its own I/O threads', not another client's in the same JVM. */
class ClientMonitorTests {

  /** Spins for {@code cpu} of its own CPU time, counts down {@code burnt}, then waits for {@code end}. */
  private static Thread busy(String name, Duration cpu, CountDownLatch burnt, CountDownLatch end) {
    Thread t = new Thread(() -> {
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long until = threads.getCurrentThreadCpuTime() + cpu.toNanos();
      while (threads.getCurrentThreadCpuTime() < until) Thread.onSpinWait();
      burnt.countDown();
      try {
        end.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Test
  void countsItsOwnIoThreadsAndNoOtherClients() throws InterruptedException {
    CountDownLatch burnt = new CountDownLatch(2);
    CountDownLatch end = new CountDownLatch(1);
    ClientMonitor monitor = ClientMonitor.start("llmbench-io-7-");
    busy("llmbench-io-7-1", Duration.ofMillis(200), burnt, end);
    busy("llmbench-io-8-1", Duration.ofMillis(600), burnt, end);
    burnt.await();
    Duration cpu = monitor.stop(Duration.ofSeconds(1)).clientCpu();
    end.countDown();
    assertThat(cpu).as("its own loop's 200 ms, not the other client's 600 ms")
        .isBetween(Duration.ofMillis(200), Duration.ofMillis(600));
  }
}
