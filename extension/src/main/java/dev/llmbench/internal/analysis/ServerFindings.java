package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.ServerFigures;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the server's own figures ({@link ServerFigures}) say about a level: requests it preempted, with its KV cache's
 * use as the evidence of why.
 */
final class ServerFindings {

  /** KV-cache use from which a cache is full: vLLM preempts when it cannot allocate a block, near 100%. */
  static final double FULL = 0.95;

  private ServerFindings() {}

  /** {@code C=64 preempted 41 requests with the KV cache 100.0% full at its peak (mean 97.3%): ...}; empty without one. */
  static Optional<Finding> preemption(SweepLevelResult l) {
    Optional<ServerFigures> f = l.serverFigures();
    if (f.isEmpty() || f.get().preemptions().orElse(0) <= 0) return Optional.empty();
    ServerFigures s = f.get();
    long p = s.preemptions().getAsLong();
    String what = "vllm".equals(s.family()) ? "preempted" : "sglang".equals(s.family()) ? "retracted" : "preempted";
    String counter = "sglang".equals(s.family()) ? "sglang:num_retracted_requests_total" : "vllm:num_preemptions_total";
    boolean full = !Double.isNaN(s.kvCacheUsagePeak()) && s.kvCacheUsagePeak() >= FULL;
    String kv = Double.isNaN(s.kvCacheUsagePeak()) ? "" : String.format(Locale.ROOT, " with the KV cache %s %s at its peak "
        + "(mean %s)", Formats.percent(s.kvCacheUsagePeak()), full ? "full" : "used", Formats.percent(s.kvCacheUsageMean()));
    String summary = l.label() + " " + what + " " + p + (p == 1 ? " request" : " requests") + kv + ": the server freed "
        + (p == 1 ? "its" : "their") + " KV cache and redid " + (p == 1 ? "its" : "their") + " work, so throughput and "
        + "latency here include recomputation (" + counter + ")";
    FindingBuilder b = new FindingBuilder(FindingKind.PREEMPTION, summary, List.of(l))
        .evidence("preemptions at " + l.label(), p, "requests")
        .evidence("KV-cache usage at " + l.label() + ", peak", s.kvCacheUsagePeak(), "fraction")
        .evidence("KV-cache usage at " + l.label() + ", mean", s.kvCacheUsageMean(), "fraction")
        .evidence("server requests running at " + l.label() + ", mean", s.requestsRunningMean(), "requests")
        .evidence("server requests waiting at " + l.label() + ", peak", s.requestsWaitingPeak(), "requests");
    String remedy = "give the KV cache more memory (vLLM gpu_memory_utilization, an FP8 KV cache; SGLang "
        + "mem_fraction_static), or fewer sequences at once (vLLM max_num_seqs, SGLang max_running_requests)";
    if (full || Double.isNaN(s.kvCacheUsagePeak())) {
      b.likely("KV-cache pressure", "the running batch needed more KV blocks than the cache holds" + (full ? " (peak "
          + Formats.percent(s.kvCacheUsagePeak()) + ")" : ""), remedy);
    } else {
      b.possible("KV-cache pressure between samples", "the cache peaked at " + Formats.percent(s.kvCacheUsagePeak())
          + " in the 250 ms samples, so it filled between them", remedy);
    }
    return Optional.of(b.build());
  }
}
