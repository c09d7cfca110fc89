package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The first open-loop level, by ascending offered rate, whose queue built up ({@link FindingKind#QUEUEING}): the
 * mean latency of its last third of requests (by send time) is over {@value #QUEUE_GROWTH}x that of its first
 * third. Completed requests per window would mislead here: a short level's window includes the last request's
 * latency.
 */
final class QueueingDetector implements CurveDetector {

  /** An open-loop level is past saturation when its late requests take this much longer than its early ones. */
  static final double QUEUE_GROWTH = 1.5;

  @Override
  public Optional<Finding> detect(Curve curve) {
    for (SweepLevelResult l : curve.levels()) {
      Optional<Double> growth = latencyGrowth(l);
      if (growth.isPresent() && growth.get() > QUEUE_GROWTH) {
        FindingBuilder b = new FindingBuilder(FindingKind.QUEUEING, String.format(Locale.ROOT, "at %s req/s the latency of "
            + "the last third of requests is %.1fx that of the first third: requests queue, the server is past saturation",
            Formats.rate(SweepGroups.rate(l)), growth.get()), List.of(l))
            .evidence("offered rate", SweepGroups.rate(l), "req/s")
            .evidence("latency growth, last third over first", growth.get(), "")
            .evidence("request throughput", l.requestThroughput().perSecond(), "req/s");
        b.add(ReadingCauses.client(l));
        return Optional.of(b.build());
      }
    }
    return Optional.empty();
  }

  /** Whether the level kept up: its queue did not build. */
  static boolean keptUp(SweepLevelResult l) {
    return latencyGrowth(l).filter(g -> g <= QUEUE_GROWTH).isPresent();
  }

  /** Whether the level's queue built up. */
  static boolean queued(SweepLevelResult l) {
    return latencyGrowth(l).filter(g -> g > QUEUE_GROWTH).isPresent();
  }

  /** Mean E2E latency of the last third of successful requests over that of the first third, by send time. */
  static Optional<Double> latencyGrowth(SweepLevelResult l) {
    List<RequestResult> ok = l.requests().stream().filter(RequestResult::succeeded).toList(); // in send order
    int third = ok.size() / 3;
    if (third == 0) return Optional.empty();
    double first = ok.subList(0, third).stream().mapToLong(r -> r.e2eLatency().toNanos()).average().orElse(0);
    double last = ok.subList(ok.size() - third, ok.size()).stream().mapToLong(r -> r.e2eLatency().toNanos()).average().orElse(0);
    return first == 0 ? Optional.empty() : Optional.of(last / first);
  }
}
