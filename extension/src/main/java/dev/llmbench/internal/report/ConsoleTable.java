package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Distribution;
import dev.llmbench.LoadShape;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.SweepGroups;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/** The table terminal users know from ad-hoc sweep scripts: one row per level. */
@API(status = INTERNAL)
public final class ConsoleTable {

  private ConsoleTable() {}

  /** One row per level; a sweep crossing several workloads gets a heading per workload. */
  public static String render(List<? extends SweepLevelResult> levels) {
    Map<String, List<SweepLevelResult>> groups = SweepGroups.of(levels);
    StringBuilder out = new StringBuilder();
    if (groups.size() == 1) {
      out.append(rows(levels));
    } else {
      groups.forEach((group, members) -> out.append("-- ").append(group).append('\n').append(rows(members)));
    }
    for (SweepLevelResult l : levels) {
      if (l.tokenCrossCheck().isEmpty() && l.decodeRates().isEmpty()) continue;
      out.append(rowLabel(l)).append(" | server:");
      l.tokenCrossCheck().ifPresent(c -> out.append(' ').append(c));
      l.decodeRates().ifPresent(d -> out.append(String.format(Locale.ROOT, "; decode %.1f tok/s client vs %.1f server timings",
          d.client(), d.server())));
      out.append('\n');
    }
    if (levels.stream().anyMatch(l -> !l.e2eLatency().isEmpty() && !l.e2eLatency().supports(99))) {
      out.append("* p99 of fewer than ").append(Distribution.samplesNeeded(99)).append(" requests is only their maximum\n");
    }
    return out.toString();
  }

  private static String rows(List<? extends SweepLevelResult> levels) {
    int width = levels.stream().mapToInt(l -> rowLabel(l).length()).max().orElse(4);
    int countWidth = levels.stream().mapToInt(l -> Long.toString(l.requestCount()).length()).max().orElse(1);
    StringBuilder out = new StringBuilder();
    for (SweepLevelResult l : levels) {
      out.append(String.format(Locale.ROOT, "%-" + width + "s | %" + countWidth + "d/%" + countWidth + "d ok (%d err) | wall=%5.1fs | %6.1f tok/s | lat avg=%s p50=%s p99=%s | ttft avg=%s p99=%s",
          rowLabel(l), l.succeeded(), l.requestCount(), l.failed(), l.window().toNanos() / 1e9,
          l.outputThroughput().perSecond(),
          s(l.e2eLatency().mean().orElse(null)), s(l.e2eLatency().percentile(50).orElse(null)),
          p99(l.e2eLatency()), s(l.ttft().mean().orElse(null)), p99(l.ttft())));
      if (!l.errorsByType().isEmpty()) out.append(" | errors ").append(l.errorsByType());
      out.append('\n');
    }
    return out.toString();
  }

  /** {@code C= 1}, as the familiar scripts print it, or the level's own label when it is more than a concurrency. */
  static String rowLabel(SweepLevelResult l) {
    if (l.load() instanceof LoadShape.ClosedLoop && l.label().equals("C=" + l.concurrency())) {
      return String.format(Locale.ROOT, "C=%2d", l.concurrency());
    }
    return l.label();
  }

  /** p99 in seconds, starred when it rests on too few samples to be more than the maximum. */
  private static String p99(Distribution d) {
    return s(d.percentile(99).orElse(null)) + (!d.isEmpty() && !d.supports(99) ? "*" : "");
  }

  private static String s(Duration d) {
    return d == null ? " -  " : String.format(Locale.ROOT, "%5.2f", d.toNanos() / 1e9);
  }

  static String ms(Distribution d, double p) {
    return d.percentile(p).map(v -> String.format(Locale.ROOT, "%.1f", v.toNanos() / 1e6)).orElse("-");
  }
}
