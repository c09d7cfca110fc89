package dev.llmbench.internal.analysis;

import dev.llmbench.server.DeploymentFacts;
import dev.llmbench.server.DeploymentDescription;
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
  record Bound(String clause, FindingBuilder.Causes causes) {}

  private Diagnosis() {}

  /** Why throughput at {@code hi} is less than {@code lo}'s scaled by the concurrency. */
  static Bound bound(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    List<String> client = ClientCheck.reasons(hi);
    if (!client.isEmpty()) {
      c.add(ReadingCauses.client(hi));
      return new Bound("the client may have set " + hi.label() + "'s figures (" + client.get(0) + "), so the server's "
          + "bound is not judged from it", c);
    }
    if (Figures.median(lo, Metric.TPOT).isEmpty() || Figures.median(hi, Metric.TPOT).isEmpty()
        || Figures.median(lo, Metric.TTFT).isEmpty() || Figures.median(hi, Metric.TTFT).isEmpty()) {
      Optional<Bound> derived = derived(lo, hi, facts);
      if (derived.isPresent()) return derived.get();
      // Without both medians at both levels, and no latency to derive the time per token from, no cause can be
      // told from another, nor ruled out.
      c.possible("a bound the per-token timings would show", "the levels give no median TPOT and TTFT (a table without "
          + "those columns, or results without per-request data)", "add an E2E latency column (lat avg, lat p50, lat p99), "
          + "from which the time per token is derived, and TTFT (ttft p50), or median_tpot_ms and median_ttft_ms; or read "
          + "the per-request results (vllm bench serve --save-detailed, or an LLMBench run's folder)");
      return new Bound("without median TPOT and TTFT at " + lo.label() + " and " + hi.label() + " the cause is not told", c);
    }
    String tpot = String.format(Locale.ROOT, "TPOT %.1f to %.1f ms", Figures.medianMs(lo, Metric.TPOT),
        Figures.medianMs(hi, Metric.TPOT));
    String ttft = String.format(Locale.ROOT, "TTFT %.1f to %.1f ms", Figures.medianMs(lo, Metric.TTFT),
        Figures.medianMs(hi, Metric.TTFT));
    boolean tpotRose = Figures.rose(lo, hi, Metric.TPOT);
    boolean ttftRose = Figures.rose(lo, hi, Metric.TTFT);
    Optional<Double> waiting = Figures.gauge(hi, Figures.WAITING);
    preemption(hi, c);
    String gpus = GpuDiagnosis.read(hi, waiting, c);
    // The server's own gauges outrank the shape of the timings: a server that ran fewer than C at once while others
    // waited is bound by its batch or slot limit, though each step slows as that smaller batch fills.
    Optional<Double> running = Figures.gauge(hi, Figures.RUNNING);
    if (hi.concurrency() > 0 && running.isPresent() && running.get() < 0.9 * hi.concurrency()
        && waiting.filter(w -> w > 0).isPresent()) {
      queueing(hi, waiting, ttft, c);
      if (tpotRose) decodeBound(facts, c);
      return new Bound("the server ran at most " + Formats.number(running.get()) + " of the " + hi.concurrency()
          + " requests at once while up to " + Formats.number(waiting.get()) + " waited (its gauges at " + hi.label()
          + "), so it is bound by its batch or slot limit" + (tpotRose ? "; each decode step also slowed as that batch "
          + "filled (" + tpot + ")" : ", each decode step keeping its pace (" + tpot + ")") + gpus, c);
    }
    if (tpotRose) {
      decodeBound(facts, c);
      if (ttftRose) queueing(hi, waiting, ttft, c);
      return new Bound("each decode step slows as the batch grows (" + tpot + "), so the deployment is bound by "
          + (facts.isEmpty() ? "memory bandwidth or the interconnect (on GPUs) or by compute (on CPUs)" : boundName(facts))
          + ", not by how many requests it batches" + gpus, c);
    }
    c.ruledOut("decode steps that slow with the batch", tpot + ": each step kept its pace");
    if (ttftRose) {
      queueing(hi, waiting, ttft, c);
      return new Bound("requests wait longer before their first token (" + ttft + ") while each decode step keeps its "
          + "pace (" + tpot + "): the server runs fewer requests at once than C, or its prefill is the bound" + gpus, c);
    }
    c.possible("pauses between decode steps", "neither " + tpot + " nor " + ttft + " moved beyond noise: time goes "
        + "somewhere else (scheduling, sampling, detokenising, the HTTP layer)", "profile the server at " + hi.label());
    return new Bound("neither TPOT nor TTFT explains it beyond noise (" + tpot + "; " + ttft + ")" + gpus, c);
  }

  /**
   * The bound read from two summaries' derived time per token ({@link Derived}): the growth of each request's
   * time per token, with the deployment facts, names the likely bound, said to be likely from the facts and
   * that growth, not measured per token. Empty when either level has no time per token to derive.
   */
  static Optional<Bound> derived(SweepLevelResult lo, SweepLevelResult hi, DeploymentDescription facts) {
    Optional<Derived> a = Derived.of(lo);
    Optional<Derived> b = Derived.of(hi);
    if (a.isEmpty() || b.isEmpty() || a.get().decode().isEmpty() || b.get().decode().isEmpty()) return Optional.empty();
    Derived x = a.get();
    Derived y = b.get();
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    String perToken = perToken(x, y);
    boolean measured = x.decode().get() == Derived.Decode.MEASURED && y.decode().get() == Derived.Decode.MEASURED;
    String confidence = measured ? "" : "likely, from " + (facts.isEmpty() ? "" : "the facts and ")
        + "the growth of per-request time, not measured per token";
    boolean ttftKnown = Figures.commonStat(lo, hi, Metric.TTFT).isPresent();
    String ttft = ttftKnown ? ttftText(lo, hi) : "";
    if (decodeRose(x, y)) {
      FindingBuilder.Causes bound = new FindingBuilder.Causes();
      decodeBound(facts, bound);
      c.add(measured ? bound : qualified(bound, confidence));
      if (!ttftKnown) {
        c.possible("requests waiting before their first token", "without TTFT, a wait for a slot or for prefill is inside "
            + "the derived time per token: a server running fewer than C at once makes each request take longer too",
            "add TTFT (ttft p50, or median_ttft_ms) to the table: it tells the wait for the first token from decoding");
      } else if (Figures.rose(lo, hi, Metric.TTFT)) {
        queueing(hi, Optional.empty(), ttft, c);
      }
      return Optional.of(new Bound("each request's time per token grows with the batch (" + perToken + "), so the "
          + "deployment is bound by " + (facts.isEmpty() ? "memory bandwidth or the interconnect (on GPUs) or by compute "
          + "(on CPUs)" : boundName(facts)) + ", not by how many requests it batches" + (measured ? "" : ": " + confidence), c));
    }
    c.ruledOut("decode steps that slow with the batch", perToken + ": each request's time per token kept its pace");
    if (ttftKnown && Figures.rose(lo, hi, Metric.TTFT)) {
      waitBeforeFirstToken(lo, hi, perToken, c);
      return Optional.of(new Bound("requests wait longer before their first token (" + ttft + ") while each request's "
          + "time per token keeps its pace (" + perToken + "): the server runs fewer requests at once than C, or its "
          + "prefill is the bound", c));
    }
    if (!Double.isNaN(y.inFlight()) && y.inFlight() < 0.9 * hi.concurrency()) {
      c.likely("fewer than C in flight", String.format(Locale.ROOT, "by Little's law %.2f of %d were in flight on average at "
          + "%s (mean E2E x ok / wall): the client sent fewer at once, or the window holds gaps between requests",
          y.inFlight(), hi.concurrency(), hi.label()), "check how the table's script kept C requests in flight");
    }
    c.possible("pauses between decode steps", (ttftKnown ? "neither the time per token (" + perToken + ") nor " + ttft
        + " moved" : "the time per token (" + perToken + ") did not move") + " beyond noise: time goes somewhere else "
        + "(scheduling, sampling, detokenising, the HTTP layer)", "profile the server at " + hi.label());
    return Optional.of(new Bound((ttftKnown ? "neither the time per token nor TTFT explains" : "the time per token does "
        + "not explain") + " it beyond noise (" + perToken + (ttftKnown ? "; " + ttft : "") + ")", c));
  }

  /**
   * Two summaries whose time per token kept its pace while TTFT rose: what grew is the wait before the first
   * token, a batch or slot limit below C or prefill. Likely from the numbers alone; which of the two, the server's
   * queue gauge would tell.
   */
  static void waitBeforeFirstToken(SweepLevelResult lo, SweepLevelResult hi, String perToken, FindingBuilder.Causes c) {
    String stat = Figures.commonStat(lo, hi, Metric.E2E_LATENCY).orElse("median");
    double e2eGrew = Figures.statMs(hi, Metric.E2E_LATENCY, stat) - Figures.statMs(lo, Metric.E2E_LATENCY, stat);
    String ttftStat = Figures.commonStat(lo, hi, Metric.TTFT).orElseThrow();
    double ttftGrew = Figures.statMs(hi, Metric.TTFT, ttftStat) - Figures.statMs(lo, Metric.TTFT, ttftStat);
    String share = Double.isNaN(e2eGrew) || e2eGrew <= 0 ? "" : String.format(Locale.ROOT, ", %s of the E2E latency's growth",
        Formats.percent(Math.min(1, ttftGrew / e2eGrew)));
    c.likely("a wait before the first token: a batch or slot limit below C, or prefill", ttftText(lo, hi) + share
        + ", while each request's time per token kept its pace (" + perToken + ")", "raise the server's concurrent "
        + "sequences (vLLM max_num_seqs, SGLang max_running_requests, llama.cpp -np) if its KV cache has room; its queue "
        + "gauge (vllm:num_requests_waiting) tells a slot limit from prefill");
  }

  /** {@code at most 16.4 to 40.3 ms per token, derived from E2E latency and 512 tokens per request; ...}. */
  static String perToken(Derived lo, Derived hi) {
    String source = lo.decode().equals(hi.decode()) ? hi.decodeSource()
        : lo.decodeSource() + " at " + lo.level().label() + ", " + hi.decodeSource() + " at " + hi.level().label();
    boolean bound = lo.decode().get() == Derived.Decode.UPPER_BOUND || hi.decode().get() == Derived.Decode.UPPER_BOUND;
    return String.format(Locale.ROOT, "%s%.1f to %.1f ms per token, %s", bound ? "at most " : "", lo.decodeMs(), hi.decodeMs(),
        source);
  }

  /** Whether the time per token rose beyond the noise of both: that of the figure it was derived from. */
  static boolean decodeRose(Derived lo, Derived hi) {
    double a = lo.decodeNanos();
    double b = hi.decodeNanos();
    return b - a > Math.hypot(a * relativeNoise(lo), b * relativeNoise(hi));
  }

  private static double relativeNoise(Derived d) {
    Metric from = d.decode().get() == Derived.Decode.MEASURED ? Metric.TPOT : Metric.E2E_LATENCY;
    double value = from == Metric.TPOT ? d.decodeNanos() : d.e2e().orElseThrow().toNanos();
    return value <= 0 ? Noise.ASSUMED : Noise.medianNanos(d.level(), from) / value;
  }

  static String ttftText(SweepLevelResult lo, SweepLevelResult hi) {
    String stat = Figures.commonStat(lo, hi, Metric.TTFT).orElseThrow();
    return String.format(Locale.ROOT, "TTFT %s%.1f to %.1f ms", stat.equals("mean") ? "mean " : "",
        Figures.statMs(lo, Metric.TTFT, stat), Figures.statMs(hi, Metric.TTFT, stat));
  }

  /** The same causes, each reason saying how sure it is. */
  static FindingBuilder.Causes qualified(FindingBuilder.Causes from, String confidence) {
    FindingBuilder.Causes out = new FindingBuilder.Causes();
    from.likely.forEach(x -> out.likely(x.cause(), x.reason() + " (" + confidence + ")", from.steps.get(x)));
    from.possible.forEach(x -> out.possible(x.cause(), x.reason() + " (" + confidence + ")", from.steps.get(x)));
    out.ruledOut.addAll(from.ruledOut);
    return out;
  }

  /** The bound that fits the deployment when decode slows with the batch, with what to try, for a reading elsewhere. */
  static FindingBuilder.Causes decodeBound(DeploymentDescription facts) {
    FindingBuilder.Causes c = new FindingBuilder.Causes();
    decodeBound(facts, c);
    return c;
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
