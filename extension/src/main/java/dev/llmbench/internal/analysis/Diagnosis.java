package dev.llmbench.internal.analysis;

import dev.llmbench.DeploymentFacts;
import dev.llmbench.DeploymentDescription;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a server does not scale between two levels, read from how TPOT, TTFT and the server's own gauges
 * moved, and sharpened by what the suite said about its deployment.
 */
final class Diagnosis {

  static final String DESCRIBE_STEP = "describe the deployment with @DeploymentFacts (GPUs, interconnect, parallelism, "
      + "attention, quantisation) so the analysis can name the likely bound";

  /**
   * The clause a headline carries, and the causes behind it.
   *
   * @param clause what the numbers say, e.g. "each decode step slows as the batch grows (TPOT 17.1 to 40.5 ms), ..."
   */
  record Reading(String clause, FindingBuilder.Causes causes) {}

  private Diagnosis() {}

  /** Why throughput at {@code hi} is less than {@code lo}'s scaled by the concurrency. */
  static Reading bound(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    List<String> client = ClientCheck.reasons(hi);
    if (!client.isEmpty()) {
      c.add(ReadingCauses.client(hi));
      return new Reading("the client may have set " + hi.label() + "'s figures (" + client.get(0) + "), so the server's "
          + "bound is not judged from it", c);
    }
    if (Figures.median(lo, Metric.TPOT).isEmpty() || Figures.median(hi, Metric.TPOT).isEmpty()
        || Figures.median(lo, Metric.TTFT).isEmpty() || Figures.median(hi, Metric.TTFT).isEmpty()) {
      // Without both medians at both levels no cause can be told from another, nor ruled out.
      c.possible("a bound the per-token timings would show", "the levels give no median TPOT and TTFT (a table without "
          + "those columns, or results without per-request data)", "add median_tpot_ms and median_ttft_ms to the table, "
          + "or read the per-request results (vllm bench serve --save-detailed, or an LLMBench run's folder)");
      return new Reading("without median TPOT and TTFT at " + lo.label() + " and " + hi.label() + " the cause is not told", c);
    }
    String tpot = String.format(Locale.ROOT, "TPOT %.1f to %.1f ms", Figures.medianMs(lo, Metric.TPOT),
        Figures.medianMs(hi, Metric.TPOT));
    String ttft = String.format(Locale.ROOT, "TTFT %.1f to %.1f ms", Figures.medianMs(lo, Metric.TTFT),
        Figures.medianMs(hi, Metric.TTFT));
    boolean tpotRose = Figures.rose(lo, hi, Metric.TPOT);
    boolean ttftRose = Figures.rose(lo, hi, Metric.TTFT);
    Optional<Double> waiting = Figures.gauge(hi, Figures.WAITING);
    preemption(hi, c);
    String gpus = GpuReading.read(hi, waiting, c);
    if (tpotRose) {
      decodeBound(facts, c);
      if (ttftRose) queueing(hi, waiting, ttft, c);
      return new Reading("each decode step slows as the batch grows (" + tpot + "), so the deployment is bound by "
          + (facts.isEmpty() ? "memory bandwidth or the interconnect (on GPUs) or by compute (on CPUs)" : boundName(facts))
          + ", not by how many requests it batches" + gpus, c);
    }
    c.ruledOut("decode steps that slow with the batch", tpot + ": each step kept its pace");
    if (ttftRose) {
      queueing(hi, waiting, ttft, c);
      return new Reading("requests wait longer before their first token (" + ttft + ") while each decode step keeps its "
          + "pace (" + tpot + "): the server runs fewer requests at once than C, or its prefill is the bound" + gpus, c);
    }
    c.possible("pauses between decode steps", "neither " + tpot + " nor " + ttft + " moved beyond noise: time goes "
        + "somewhere else (scheduling, sampling, detokenising, the HTTP layer)", "profile the server at " + hi.label());
    return new Reading("neither TPOT nor TTFT explains it beyond noise (" + tpot + "; " + ttft + ")" + gpus, c);
  }

  /**
   * Requests waited in the server: its gauges say so, or rule it out. A server that ran all C at once has no
   * batch limit below C, whatever its queue showed between steps (arrivals wait there for the next step).
   */
  static void queueing(SweepLevelResult hi, Optional<Double> waiting, String ttft, FindingBuilder.Causes c) {
    Optional<Double> running = Figures.gauge(hi, Figures.RUNNING);
    if (running.isPresent() && running.get() >= hi.concurrency()) {
      c.ruledOut("a batch or slot limit below C", "the server ran all " + hi.concurrency() + " together (peak "
          + Formats.number(running.get()) + " running)");
      c.possible("arrivals waiting for the next step, and prefill", ttft + ": a request that arrives mid-step waits "
          + "for the step to end, and the step that admits it also processes the prompts that came with it"
          + waiting.filter(w -> w > 0).map(w -> " (peak " + Formats.number(w) + " waiting)").orElse(""),
          "chunked prefill, or a smaller batch of prompts per step");
    } else if (waiting.isPresent() && waiting.get() > 0) {
      c.likely("a batch or slot limit below C", "requests waited in the server's queue (peak " + Formats.number(waiting.get())
          + " waiting" + running.map(r -> ", " + Formats.number(r) + " running").orElse("") + "; " + ttft + ")",
          "raise the server's concurrent sequences (vLLM max_num_seqs, SGLang max_running_requests, llama.cpp -np) if "
              + "its KV cache has room");
    } else if (waiting.isPresent()) {
      c.ruledOut("a batch or slot limit below C", "the server never had a request waiting");
      c.possible("prefill as the bound", ttft + " with no queue: each new prompt takes longer to process",
          "shorter prompts, chunked prefill, or prefill on separate workers (disaggregated serving)");
    } else {
      c.possible("a batch or slot limit below C", ttft + "; the server gives no queue gauge to tell",
          "scrape the server's /metrics (vLLM --enable-metrics is on by default; llama.cpp needs --metrics)");
    }
  }

  private static void preemption(SweepLevelResult hi, FindingBuilder.Causes c) {
    Figures.counter(hi, Figures.PREEMPTIONS).filter(p -> p > 0).ifPresent(p -> c.likely("KV-cache pressure",
        Math.round(p) + " preemptions at " + hi.label() + " (vllm:num_preemptions_total)",
        "give the KV cache more memory, an FP8 KV cache, or fewer concurrent sequences"));
    Figures.gauge(hi, Figures.KV_USAGE).filter(u -> u >= 0.95).ifPresent(u -> c.likely("a full KV cache",
        "KV-cache use peaked at " + Formats.percent(u) + " at " + hi.label(), "give the KV cache more memory"));
  }

  /** Decode steps that slow as the batch grows: the bound that fits the deployment, with its usual remedies. */
  private static void decodeBound(DeploymentDescription f, FindingBuilder.Causes c) {
    if (f.isEmpty()) {
      c.likely("memory bandwidth, the interconnect or compute", "per-token time grows with the batch; which of them "
          + "depends on the deployment", DESCRIBE_STEP);
      return;
    }
    boolean pcieTp = f.interconnect() == DeploymentFacts.Interconnect.PCIE && f.tensorParallel() > 1;
    if (pcieTp) {
      c.likely("tensor-parallel all-reduce over PCIe", "TP=" + f.tensorParallel() + " over PCIe: every layer ends in "
          + "all-reduces across " + f.tensorParallel() + " GPUs on every decode step, and their cost grows with the batch",
          "cross PCIe less: fewer tensor-parallel ranks with data or pipeline parallelism (e.g. TP=" + Math.max(2,
              f.tensorParallel() / 2) + " x DP=2), expert parallelism for a mixture of experts, or GPUs with NVLink");
    }
    if (f.attention() == DeploymentFacts.Attention.MLA && f.tensorParallel() > 1) {
      c.likely("MLA's latent KV cache replicated across TP ranks", "MLA keeps one latent per token, which tensor "
          + "parallelism cannot split: every rank holds and reads the whole cache, so TP adds no KV capacity",
          "data-parallel attention (SGLang --enable-dp-attention, vLLM data parallel with expert parallel)");
    }
    if (f.attention() == DeploymentFacts.Attention.MHA) {
      c.likely("KV-cache reads of multi-head attention", "MHA keeps a K and V per head per token: decode at large "
          + "batches is bound by reading them", "an FP8 KV cache, or a GQA/MQA model");
    }
    if (!f.quantisation().isEmpty()) {
      c.possible("KV-cache reads despite " + f.quantisation(), "weight quantisation cuts the weights read per step, not "
          + "the KV cache each sequence adds", "quantise the KV cache too (FP8 KV cache)");
    }
    if (f.interconnect() == DeploymentFacts.Interconnect.NVLINK && f.tensorParallel() > 1) {
      c.possible("memory bandwidth", "all-reduce over NVLink rarely grows this much with the batch; KV-cache and weight "
          + "reads more often do", "an FP8 KV cache or a larger batch per GPU");
    }
    if (!pcieTp && f.attention() == DeploymentFacts.Attention.UNSPECIFIED) {
      c.likely("memory bandwidth, the interconnect or compute", "per-token time grows with the batch on "
          + f.describe(), "say more about the deployment (interconnect, parallelism, attention) with @DeploymentFacts");
    } else if (!pcieTp && f.attention() != DeploymentFacts.Attention.MHA && !(f.attention() == DeploymentFacts.Attention.MLA
        && f.tensorParallel() > 1)) {
      c.likely("memory bandwidth", "per-token time grows with the batch on " + f.describe(),
          "an FP8 KV cache or a larger batch per GPU");
    }
  }

  /** What the bound is called in a headline, given the deployment. */
  private static String boundName(DeploymentDescription f) {
    if (f.interconnect() == DeploymentFacts.Interconnect.PCIE && f.tensorParallel() > 1) {
      return "tensor-parallel all-reduce over PCIe (TP=" + f.tensorParallel() + ")";
    }
    if (f.attention() == DeploymentFacts.Attention.MHA) return "KV-cache reads (memory bandwidth)";
    return "memory bandwidth or the interconnect (" + f.describe() + ")";
  }
}
