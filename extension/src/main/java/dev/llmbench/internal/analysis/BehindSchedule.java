package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.LoadShape;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Whether an uncapped open loop (a trace replayed at its timestamps, or a rate's drawn arrivals) fell behind
 * its schedule: its requests went out later than they were due, so the server saw other load than the one
 * asked for. With a concurrency cap a late send is the cap's wait for a slot (the server's speed, read as
 * queueing), so capped levels are not judged here.
 */
@API(status = INTERNAL)
public final class BehindSchedule {

  /** A p99 schedule lag (the maximum, with fewer than 100 requests) this long or longer: the client fell behind. */
  public static final Duration LAG = Duration.ofMillis(10);

  private BehindSchedule() {}

  public static Optional<Finding> of(SweepLevelResult l) {
    if (!(l.load() instanceof LoadShape.OpenLoop open) || open.maxConcurrency().isPresent()) return Optional.empty();
    Distribution lag = l.scheduleLag().orElse(null);
    if (lag == null || lag.isEmpty()) return Optional.empty();
    boolean p99 = lag.supports(99);
    Duration judged = (p99 ? lag.percentile(99) : lag.max()).orElse(Duration.ZERO);
    if (judged.compareTo(LAG) < 0) return Optional.empty();
    Duration max = lag.max().orElse(Duration.ZERO);
    FindingBuilder b = new FindingBuilder(FindingKind.BEHIND_SCHEDULE, "the client fell behind " + l.label() + "'s schedule: "
        + "requests went out " + Formats.duration(judged) + " after they were due (" + (p99 ? "p99" : "the latest of "
        + lag.count()) + "; max " + Formats.duration(max) + "), so the server saw later, burstier arrivals than "
        + (l.prompts().startsWith("mooncake:") ? "the trace's" : "the rate's"), List.of(l))
        .evidence("schedule lag p50", ms(lag.percentile(50).orElse(Duration.ZERO)), "ms")
        .evidence("schedule lag p99", ms(lag.percentile(99).orElse(Duration.ZERO)), "ms")
        .evidence("schedule lag max", ms(max), "ms");
    ClientLoad c = l.clientLoad().orElse(null);
    if (c != null) {
      b.evidence("wake-up lag p90", ms(c.wakeupLagP90()), "ms").evidence("JVM CPU share", c.processCpuShare(), "fraction");
      if (c.wakeupLagP90().compareTo(ClientCheck.LAG_FLOOR) >= 0) {
        b.likely("the client's threads ran late", "a thread that asked to wake after 2 ms woke " + Formats.duration(c.wakeupLagP90())
            + " late (p90): the sending thread waited for a core", "give the client its own cores, or run the server elsewhere");
      }
      if (c.processCpuShare() >= ClientCheck.JVM_BUSY) {
        b.likely("a saturated JVM", "this JVM used " + Formats.percent(c.processCpuShare()) + " of its " + c.cores() + " cores"
            + (l.endpoint().embedded().isPresent() ? " (the embedded engine runs in it too)" : ""),
            "replay slower (a lower time scale), or send from a machine of its own");
      } else if (c.machineCpuShare() >= ClientCheck.MACHINE_BUSY) {
        b.likely("a busy machine", "the machine's cores were " + Formats.percent(c.machineCpuShare()) + " busy",
            "run the benchmark on a quieter machine");
      }
    }
    b.possible("building long prompts on the sending thread", "each request's prompt and body are made when it is due",
        "replay slower (a lower time scale), or use shorter prompts");
    return Optional.of(b.build());
  }

  private static double ms(Duration d) {
    return d.toNanos() / 1e6;
  }
}
