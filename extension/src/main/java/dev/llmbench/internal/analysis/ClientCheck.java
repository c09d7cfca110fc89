package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.ClientLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Whether the client, not the server, may have set a level's figures: this JVM, or the whole machine,
 * had no CPU left, the client's own threads used a large share of the machine (or asked for it and waited,
 * when other processes kept the cores), or its threads ran so late
 * that the times it took are off by a good part of the gaps it measured (judged against the level's own
 * median ITL, above {@link #LAG_MIN}), naming other processes' load when they kept the machine busy.
 */
@API(status = INTERNAL)
public final class ClientCheck {

  /** The JVM used at least this share of all its cores: nothing was left to run the client on time. */
  public static final double JVM_BUSY = 0.9;
  /**
   * The machine's CPUs were at least this busy, every process included, and the client's threads woke at
   * least {@link #LAG_FLOOR} late: the client waited for a core.
   */
  public static final double MACHINE_BUSY = 0.9;
  /**
   * The client's own threads ran, or were ready to run and waited for a core, at least this share of all
   * cores' time: on a quiet machine the CPU they used; beside other busy processes also the time those kept
   * them waiting, which the CPU they got cannot show.
   */
  public static final double CLIENT_BUSY = 0.5;
  /** A wait for a core under this share of the cores' time goes unsaid in a reason. */
  static final double WAIT_WORTH_SAYING = 0.01;
  /** A wake-up lag (p90) at least this share of the level's median ITL blurs every time the client took. */
  public static final double LAG_SHARE_OF_ITL = 0.25;
  /**
   * ...and at least this long: an idle Linux machine wakes a parked thread within about 0.1 ms (timer slack
   * and scheduling), so below this the lag is the clock's own grain, whatever the gaps.
   */
  public static final Duration LAG_MIN = Duration.ofNanos(250_000);
  /** A lag this long on a machine {@link #MACHINE_BUSY} busy means the client waited for a core, whatever the gaps. */
  public static final Duration LAG_FLOOR = Duration.ofMillis(2);
  /** Other processes used at least this share of the machine's cores: they, not only this JVM, may have made it late. */
  public static final double OTHERS_BUSY = 0.25;

  private ClientCheck() {}

  /** Each reason the client may have set the level's figures; empty when nothing says so or it was not measured. */
  public static List<String> reasons(SweepLevelResult l) {
    List<String> reasons = new ArrayList<>();
    ClientLoad c = l.clientLoad().orElse(null);
    // A level no request of which was answered (a server that died refused every connection) gave the client nothing
    // to read: its threads' share of a window of refusals is noise, and its figures are the failures, not the client's.
    if (c == null || !hadWork(l, c)) return reasons;
    if (c.processCpuShare() >= JVM_BUSY) {
      reasons.add("this JVM used " + Formats.percent(c.processCpuShare()) + " of its " + c.cores() + " cores"
          + (l.endpoint().embedded().isPresent() ? " (the embedded engine runs in it too)" : ""));
    }
    // Other processes' load matters only as far as it made the client late: the probe says whether it did.
    boolean blurred = blurred(l, c);
    if (!blurred && c.processCpuShare() < JVM_BUSY && c.machineCpuShare() >= MACHINE_BUSY
        && c.wakeupLagP90().compareTo(LAG_FLOOR) >= 0) {
      reasons.add("the machine's " + c.cores() + " cores were " + Formats.percent(c.machineCpuShare())
          + " busy (this JVM " + Formats.percent(c.processCpuShare()) + " of them) and its threads woke "
          + Formats.duration(c.wakeupLagP90()) + " late (p90): the client waited for a core");
    }
    if (clientDemand(c) >= CLIENT_BUSY) {
      reasons.add("the client's own threads used " + Formats.percent(c.clientCpuShare()) + " of the " + c.cores()
          + " cores" + (c.clientWaitShare() >= WAIT_WORTH_SAYING
              ? " and waited for one another " + Formats.percent(c.clientWaitShare()) + " of the time" : "")
          + " reading " + Math.round(c.eventsPerSecond()) + " events/s"
          // The lateness reason below names other processes too: said once.
          + (c.clientWaitShare() >= WAIT_WORTH_SAYING && !blurred ? otherProcesses(c).map(o -> "; " + o).orElse("") : ""));
    }
    if (blurred) {
      Duration itl = l.itl().percentile(50).orElseThrow();
      String late = c.clientWaitPerRun().compareTo(c.wakeupLagP90()) > 0
          ? "its threads waited " + Formats.duration(c.clientWaitPerRun()) + " for a core each time they were ready (mean)"
          : "its threads woke " + Formats.duration(c.wakeupLagP90()) + " late (p90)";
      reasons.add(late + " against a median ITL of " + Formats.duration(itl) + ", so every time it took may be off by about as much"
          + otherProcesses(c).map(o -> "; " + o + ", which may have made it late").orElse(""));
    }
    return reasons;
  }

  /** Whether the client had streams to read: a request was answered and its events read. */
  static boolean hadWork(SweepLevelResult l, ClientLoad c) {
    return l.succeeded() > 0 && c.eventsPerSecond() > 0;
  }

  /** What the client's threads asked of the cores: the share they ran plus the share they waited (when known). */
  static double clientDemand(ClientLoad c) {
    return c.clientCpuShare() + (Double.isNaN(c.clientWaitShare()) ? 0 : c.clientWaitShare());
  }

  /**
   * How late the client took its times: the probe's wake-up lag (p90), or the client's own threads' mean wait for
   * a core when that is longer (a probe that sleeps is woken first, a busy event loop waits its turn).
   */
  static Duration lateness(ClientLoad c) {
    return c.clientWaitPerRun().compareTo(c.wakeupLagP90()) > 0 ? c.clientWaitPerRun() : c.wakeupLagP90();
  }

  /** The client's lateness was a good part of the gaps the level measured, and more than the clock's own grain. */
  static boolean blurred(SweepLevelResult l, ClientLoad c) {
    Duration itl = l.itl().percentile(50).orElse(null);
    Duration late = lateness(c);
    return itl != null && late.compareTo(LAG_MIN) >= 0 && late.toNanos() >= LAG_SHARE_OF_ITL * itl.toNanos();
  }

  /**
   * What other processes took of the machine while the level ran: the machine's busy share (from
   * /proc/stat on Linux, every process) less this JVM's own CPU share; empty below {@link #OTHERS_BUSY} or
   * when either was not measured.
   */
  static Optional<String> otherProcesses(ClientLoad c) {
    double others = c.machineCpuShare() - c.processCpuShare();
    if (Double.isNaN(others) || others < OTHERS_BUSY) return Optional.empty();
    return Optional.of("other processes on the machine used " + Formats.percent(others) + " of its " + c.cores()
        + " cores (the machine " + Formats.percent(c.machineCpuShare()) + " busy by /proc/stat, this JVM "
        + Formats.percent(c.processCpuShare()) + ")");
  }

  /**
   * A warning for a level the client check does not suspect, measured on a machine that other processes kept
   * busy while the client's threads woke measurably late: a shared runner's noise is in its figures.
   */
  public static Optional<String> sharedMachine(SweepLevelResult l) {
    ClientLoad c = l.clientLoad().orElse(null);
    if (c == null || !reasons(l).isEmpty() || c.wakeupLagP90().compareTo(LAG_MIN) < 0) return Optional.empty();
    return otherProcesses(c).map(o -> o + " while " + l.label() + " ran, and the client's threads woke "
        + Formats.duration(c.wakeupLagP90()) + " late (p90): its times carry noise of about that size (a shared "
        + "runner); compare levels measured on a quiet machine");
  }
}
