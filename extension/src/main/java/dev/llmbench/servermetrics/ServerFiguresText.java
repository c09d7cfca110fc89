package dev.llmbench.servermetrics;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.server.ServerFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A level's {@link ServerFigures} as the table, the JSON and the page show them, each figure under one name
 * (docs/metrics.md): a figure the server did not report is left out.
 */
final class ServerFiguresText {

  private ServerFiguresText() {}

  /** {@code spec acceptance 71.0% (mean accepted length 3.13, 1200 drafts) | KV cache 97.3% mean, 100.0% peak | ...}. */
  static String summary(ServerFigures f) {
    return String.join(" | ", parts(f));
  }

  static List<String> parts(ServerFigures f) {
    List<String> parts = new ArrayList<>();
    f.speculation().ifPresent(s -> parts.add(speculation(s)));
    if (!Double.isNaN(f.kvCacheUsageMean())) {
      parts.add("KV cache " + Formats.percent(f.kvCacheUsageMean()) + " mean, " + Formats.percent(f.kvCacheUsagePeak())
          + " peak");
    }
    f.preemptions().ifPresent(p -> parts.add(p + (p == 1 ? " preemption" : " preemptions")));
    if (!Double.isNaN(f.requestsRunningMean())) {
      parts.add(String.format(Locale.ROOT, "running %.1f mean, %s peak", f.requestsRunningMean(),
          Formats.number(f.requestsRunningPeak())));
    }
    if (!Double.isNaN(f.requestsWaitingMean())) {
      parts.add(String.format(Locale.ROOT, "waiting %.1f mean, %s peak", f.requestsWaitingMean(),
          Formats.number(f.requestsWaitingPeak())));
    }
    return parts;
  }

  /** {@code spec acceptance 71.0% (mean accepted length 3.13, 1200 drafts)}. */
  static String speculation(ServerFigures.Speculation s) {
    String rate = Double.isNaN(s.acceptanceRate()) ? "spec" : "spec acceptance " + Formats.percent(s.acceptanceRate());
    return rate + String.format(Locale.ROOT, " (mean accepted length %.2f%s)", s.meanAcceptedLength(),
        s.drafts() >= 0 ? ", " + s.drafts() + " drafts" : "");
  }

  /** {@code llmbench.server_figures}: vLLM's names where it has one, shares as fractions as everywhere in the JSON. */
  static ObjectNode json(ServerFigures f) {
    ObjectNode n = ResultJson.MAPPER.createObjectNode();
    n.put("family", f.family());
    f.speculation().ifPresent(s -> {
      if (s.drafts() >= 0) {
        n.put("spec_decode_drafts", s.drafts());
        n.put("spec_decode_draft_tokens", s.draftTokens());
        n.put("spec_decode_accepted_tokens", s.acceptedTokens());
      }
      put(n, "spec_decode_acceptance_rate", s.acceptanceRate());
      put(n, "spec_decode_mean_accepted_length", s.meanAcceptedLength());
      n.put("spec_decode_source", s.source());
    });
    put(n, "kv_cache_usage_mean", f.kvCacheUsageMean());
    put(n, "kv_cache_usage_peak", f.kvCacheUsagePeak());
    f.preemptions().ifPresent(p -> n.put("preemptions", p));
    put(n, "requests_running_mean", f.requestsRunningMean());
    put(n, "requests_running_peak", f.requestsRunningPeak());
    put(n, "requests_waiting_mean", f.requestsWaitingMean());
    put(n, "requests_waiting_peak", f.requestsWaitingPeak());
    return n;
  }

  private static void put(ObjectNode n, String name, double v) {
    if (!Double.isNaN(v)) n.put(name, v);
  }
}
