package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Requests fail more often at level {@code i} than at {@code i - 1}, beyond chance (two-proportion z above 1.96). */
final class ErrorGrowthDetector implements StepDetector {

  @Override
  public Optional<Finding> detect(Curve curve, int i) {
    List<SweepLevelResult> levels = curve.levels();
    SweepLevelResult lo = levels.get(i - 1);
    SweepLevelResult hi = levels.get(i);
    double p1 = lo.errorRate();
    double p2 = hi.errorRate();
    if (hi.failed() < 2 || p2 <= p1) return Optional.empty();
    double n1 = lo.requestCount();
    double n2 = hi.requestCount();
    double pooled = (lo.failed() + hi.failed()) / (n1 + n2);
    double se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
    double z = se == 0 ? Double.POSITIVE_INFINITY : (p2 - p1) / se;
    if (z <= 1.96) return Optional.empty();
    String summary = String.format(Locale.ROOT, "errors grow with load: %s failed at %s, %s at %s %s", Formats.percent(p1),
        lo.label(), Formats.percent(p2), hi.label(), hi.errorsByType());
    FindingBuilder b = new FindingBuilder(FindingKind.ERROR_GROWTH, summary, List.of(lo, hi))
        .evidence("error rate at " + lo.label(), p1, "fraction").evidence("error rate at " + hi.label(), p2, "fraction")
        .evidence("two-proportion z", z, "");
    hi.errorsByType().forEach((type, count) -> {
      if (type.startsWith("HTTP 429") || type.startsWith("HTTP 503")) {
        b.likely("admission control", count + " x " + type + ": the server (or a proxy) turned requests away under load",
            "raise the server's queue limits, or keep C below where it refuses");
      } else if (type.startsWith("HTTP 5")) {
        b.likely("server errors under load", count + " x " + type, "read the server's log at " + hi.label()
            + " (out of memory?)");
      } else if (type.startsWith("TIMEOUT")) {
        b.likely("requests outliving the timeout", count + " timed out: they queued or ran longer than "
            + "llmbench.request-timeout / idle-timeout allow", "check the queue, or raise the timeouts");
      } else if (type.startsWith("CANCELLED")) {
        b.likely("the grace period", count + " were still running when the level's grace ended", "raise @Measurement(grace)");
      } else {
        b.likely("dropped connections", count + " x " + type + ": connections broke or were refused (connection "
            + "limits, a proxy's timeouts, the client's file descriptors)", "check proxies and connection limits");
      }
    });
    b.add(ReadingCauses.client(hi));
    return Optional.of(b.build());
  }
}
