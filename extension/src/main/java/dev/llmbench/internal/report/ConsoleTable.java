package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ClientCheck;
import dev.llmbench.internal.analysis.LevelWarnings;
import dev.llmbench.internal.analysis.SweepGroups;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.SteadyState;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/** The table terminal users know from ad-hoc sweep scripts: one row per level. */
@API(status = INTERNAL)
public final class ConsoleTable {

  private ConsoleTable() {}

  /**
   * The columns, above the rows: TPOT and ITL as {@code vllm bench serve} names its statistics ({@code Mean TPOT (ms)},
   * {@code Median TPOT (ms)}, {@code P99 TPOT (ms)}, the same for ITL).
   */
  static final String HEADER = "level | ok/sent (err) | wall | Output token throughput (tok/s) | E2E latency (s) avg p50 p99 "
      + "| TTFT (s) avg p99 | Mean, Median, P99 TPOT (ms) | Mean, Median, P99 ITL (ms)";

  /**
   * One row per level under the header, which names the embedded engine a simulator when it was an endpoint; a sweep
   * crossing several workloads gets a heading per workload.
   */
  public static String render(List<? extends SweepLevelResult> levels) {
    Map<String, List<SweepLevelResult>> groups = SweepGroups.of(levels);
    StringBuilder out = new StringBuilder();
    levels.stream().map(l -> l.endpoint().embedded()).flatMap(Optional::stream).findFirst().ifPresent(p -> out
        .append("SIMULATED: measured on the embedded simulator (profile '").append(p).append("'), not a real server\n"));
    out.append(HEADER).append('\n');
    if (groups.size() == 1) {
      out.append(rows(levels));
    } else {
      groups.forEach((group, members) -> out.append("-- ").append(group).append('\n').append(rows(members)));
    }
    out.append(steadyLines(levels));
    for (SweepLevelResult l : levels) {
      List<String> client = ClientCheck.reasons(l);
      if (!client.isEmpty()) out.append(rowLabel(l)).append(" | client-bound: ").append(String.join("; ", client)).append('\n');
    }
    for (SweepLevelResult l : levels) {
      l.scheduleLag().filter(d -> !d.isEmpty()).ifPresent(d -> out.append(rowLabel(l)).append(" | schedule lag (sent minus due): ")
          .append(ScheduleLag.describe(d)).append('\n'));
    }
    for (SweepLevelResult l : levels) {
      if (l.tokenCrossCheck().isEmpty() && l.decodeRates().isEmpty()) continue;
      out.append(rowLabel(l)).append(" | server:");
      l.tokenCrossCheck().ifPresent(c -> out.append(' ').append(c));
      l.decodeRates().ifPresent(d -> out.append(String.format(Locale.ROOT, "; decode %.1f tok/s client vs %.1f server timings",
          d.client(), d.server())));
      out.append('\n');
    }
    for (SweepLevelResult l : levels) {
      // Beside ITL (per chunk) when chunks carried several tokens: then the two differ, else it would repeat the row.
      Distribution d = l.itlPerToken();
      if (d.isEmpty() || d.count() == l.itl().count()) continue;
      out.append(rowLabel(l)).append(" | ").append(Metric.ITL_PER_TOKEN.heading()).append(": mean=")
          .append(msCell(d.mean().orElse(null))).append(" median=").append(msCell(d.percentile(50).orElse(null)))
          .append(" p99=").append(msCell(d.percentile(99).orElse(null))).append(!d.supports(99) ? "*" : "")
          .append(" (each chunk's gap over the tokens it carried; ITL is per chunk)\n");
    }
    for (SweepLevelResult l : levels) {
      for (LevelReading r : Features.readings(LevelReading.Place.DEPLOYMENT)) {
        r.console(l).ifPresent(line -> out.append(rowLabel(l)).append(" | ").append(line).append('\n'));
      }
      // A shared-prefix workload's figure is its cache hit rate: the server's own, beside the workload.
      if (!(l instanceof MeasuredLevel m)) continue;
      m.plan().workload().prompts().generator().flatMap(g -> g.describe()).ifPresent(d -> out.append(rowLabel(l))
          .append(" | ").append(d).append(l.prefixCache().map(p -> "; prefix cache " + Formats.percent(p.hitRate())
              + " of prompt tokens (" + p.cachedTokens() + " of " + p.promptTokens() + ", " + p.source() + ")")
              .orElse("; the server reports no prefix-cache figures")).append('\n'));
    }
    for (LevelReading r : Features.readings(LevelReading.Place.WORKLOAD)) {
      for (SweepLevelResult l : levels) r.console(l).ifPresent(line -> out.append(rowLabel(l)).append(" | ").append(line).append('\n'));
    }
    networkLines(levels).forEach(line -> out.append(line).append('\n'));
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
      for (Distribution d : List.of(l.tpot(), l.itl())) {
        out.append(d == l.tpot() ? " | tpot" : " | itl").append(" mean=").append(msCell(d.mean().orElse(null)))
            .append(" median=").append(msCell(d.percentile(50).orElse(null))).append(" p99=").append(msCell(d.percentile(99).orElse(null)))
            .append(!d.isEmpty() && !d.supports(99) ? "*" : "");
      }
      if (!l.errorsByType().isEmpty()) out.append(" | errors ").append(l.errorsByType());
      if (!ClientCheck.reasons(l).isEmpty()) out.append(" | CLIENT-BOUND");
      if (l.stopReason() == StopReason.SLO_UNREACHABLE) out.append(" | stopped early: SLO unreachable");
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * Each endpoint's network baseline beside its lowest TTFT p50: every TTFT contains one round trip, so the
   * fastest round trip's share of it says how much of TTFT is network rather than server.
   */
  static List<String> networkLines(List<? extends SweepLevelResult> levels) {
    Map<EndpointInfo, List<SweepLevelResult>> byEndpoint = new LinkedHashMap<>();
    levels.forEach(l -> byEndpoint.computeIfAbsent(l.endpoint(), k -> new ArrayList<>()).add(l));
    List<String> lines = new ArrayList<>();
    byEndpoint.forEach((endpoint, members) -> endpoint.roundTrip().ifPresent(rtt -> {
      String line = "network round trip to " + endpoint.deployment().map(d -> d + " (" + endpoint.reportName() + ")")
          .orElse(endpoint.reportName()) + ": " + rtt;
      Optional<SweepLevelResult> fastest = members.stream().filter(l -> l.ttft().percentile(50).isPresent())
          .min(Comparator.comparing(l -> l.ttft().percentile(50).orElseThrow()));
      if (fastest.isPresent()) {
        Duration ttft = fastest.get().ttft().percentile(50).orElseThrow();
        // The fastest round trip: a slow one is the client or server stalling, not the network.
        double share = ttft.isZero() ? 0 : Math.min(1, (double) rtt.min().toNanos() / ttft.toNanos());
        line += String.format(Locale.ROOT, "; lowest TTFT p50 %s at %s, of which the network is at most %s",
            Formats.duration(ttft), rowLabel(fastest.get()).strip(), Formats.percent(share));
      }
      lines.add(line);
    }));
    return lines;
  }

  /**
   * The steady part of closed-loop levels, where it says something: a level whose window read apart from its
   * steady part (ramp, drain, a partial round), or that never had C in flight; else one line that all agree.
   */
  static String steadyLines(List<? extends SweepLevelResult> levels) {
    StringBuilder out = new StringBuilder();
    double maxShare = 0;
    int steady = 0;
    for (SweepLevelResult l : levels) {
      if (!(l.load() instanceof LoadShape.ClosedLoop) || l.succeeded() == 0 || l.requests().isEmpty()) continue;
      Optional<SteadyState> s = l.steadyState();
      if (s.isEmpty()) {
        out.append(rowLabel(l)).append(" | never had ").append(l.concurrency()).append(" in flight together (at most ")
            .append(l.peakConcurrency()).append("): no steady part\n");
      } else if (LevelWarnings.steadyStateGap(l).isPresent()) {
        SteadyState st = s.get();
        out.append(String.format(Locale.ROOT, "%s | steady %.1f tok/s with all %d in flight for %.2f of %.2f s (ramp %.2f s, "
            + "drain %.2f s); the window's %.1f tok/s is off by more than its noise%n", rowLabel(l),
            st.outputThroughput().perSecond(), st.inFlight(), st.steady().toNanos() / 1e9, st.window().toNanos() / 1e9,
            st.ramp().toNanos() / 1e9, st.drain().toNanos() / 1e9, l.outputThroughput().perSecond()));
      } else {
        steady++;
        maxShare = Math.max(maxShare, s.get().rampAndDrainShare());
      }
    }
    if (steady > 1 && out.length() == 0) {
      out.append(String.format(Locale.ROOT, "steady state: every level had C in flight for %.0f%% or more of its window; "
          + "window and steady throughput agree within noise%n", Math.floor((1 - maxShare) * 100)));
    }
    return out.toString();
  }

  /**
   * {@code C= 1}, as the familiar scripts print it, or the level's own label when it is more than a
   * concurrency; a deployment's level keeps its deployment: {@code C= 1 · gqa}.
   */
  static String rowLabel(SweepLevelResult l) {
    return ByDeployment.rowLabel(l);
  }

  /** p99 in seconds, starred when it rests on too few samples to be more than the maximum. */
  private static String p99(Distribution d) {
    return s(d.percentile(99).orElse(null)) + (!d.isEmpty() && !d.supports(99) ? "*" : "");
  }

  private static String msCell(Duration d) {
    return d == null ? "  -  " : String.format(Locale.ROOT, "%5.1f", d.toNanos() / 1e6);
  }

  private static String s(Duration d) {
    return d == null ? " -  " : String.format(Locale.ROOT, "%5.2f", d.toNanos() / 1e9);
  }

  static String ms(Distribution d, double p) {
    return d.percentile(p).map(v -> String.format(Locale.ROOT, "%.1f", v.toNanos() / 1e6)).orElse("-");
  }
}
