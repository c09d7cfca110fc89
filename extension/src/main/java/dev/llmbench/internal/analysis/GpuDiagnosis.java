package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.server.GpuTelemetry;
import java.util.Locale;
import java.util.Optional;

/**
 * What the GPUs' own telemetry says about a level's bound: GPUs busy nearly all the time are the bound (compute);
 * GPUs mostly idle while requests wait in the server's queue are not, and the bound is before them.
 */
final class GpuDiagnosis {

  /** Mean GPU utilisation (DCGM_FI_DEV_GPU_UTIL) from which the GPUs are the bound. */
  static final double BUSY = 0.90;
  /** Mean GPU utilisation up to which the GPUs are not the bound. */
  static final double IDLE = 0.50;

  private GpuDiagnosis() {}

  /**
   * Adds the level's GPU figures to the evidence and the cause they point to, and returns the clause a headline
   * carries, e.g. {@code " (GPUs 99.0% busy at C=32: compute-bound)"}; empty without GPU telemetry.
   */
  static String read(SweepLevelResult l, Optional<Double> waiting, FindingBuilder.Causes c) {
    Optional<GpuTelemetry> t = l.gpuTelemetry().filter(g -> !Double.isNaN(g.utilisation()));
    if (t.isEmpty()) return "";
    GpuTelemetry g = t.get();
    double u = g.utilisation();
    String at = " at " + l.label();
    c.evidence("GPU utilisation" + at + ", mean", u, "fraction");
    if (g.gpus().size() > 1) c.evidence("GPU utilisation" + at + ", busiest GPU", g.busiestUtilisation(), "fraction");
    c.evidence("GPU power" + at + ", sum of means", g.powerWatts(), "W");
    g.joulesPerOutputToken().ifPresent(j -> c.evidence("GPU energy per output token" + at, j, "J/token"));
    String busy = Formats.percent(u);
    String source = "DCGM_FI_DEV_GPU_UTIL, mean over " + g.gpus().size() + (g.gpus().size() == 1 ? " GPU" : " GPUs");
    if (u >= BUSY) {
      c.likely("GPU compute", "the GPUs had work " + busy + " of the time" + at + " (" + source + "): every step already "
          + "runs as fast as they allow, so more requests in flight only share them (a kernel running is all DCGM counts: "
          + "arithmetic or memory bandwidth, which DCGM_FI_PROF_DRAM_ACTIVE would tell apart)", "more or faster GPUs, a "
          + "smaller or quantised model, or speculative decoding");
      return " (GPUs " + busy + " busy" + at + ": compute-bound)";
    }
    if (u <= IDLE) {
      c.ruledOut("GPU compute", "the GPUs had work only " + busy + " of the time" + at + " (" + source + ")");
      if (waiting.isPresent() && waiting.get() > 0) {
        c.likely("a limit before the GPUs", String.format(Locale.ROOT, "requests waited in the server's queue (peak %s) "
            + "while the GPUs were idle %s of the time: the scheduler, a batch or slot limit, or the CPU side "
            + "(tokenising, sampling, detokenising, the HTTP layer) feeds them too slowly", Formats.number(waiting.get()),
            Formats.percent(1 - u)), "raise the server's concurrent sequences (vLLM max_num_seqs, SGLang "
            + "max_running_requests, llama.cpp -np), and profile its CPU side");
        return " (GPUs only " + busy + " busy" + at + " with " + Formats.number(waiting.get())
            + " requests waiting: not compute-bound)";
      }
      return " (GPUs only " + busy + " busy" + at + ": not compute-bound)";
    }
    return " (GPUs " + busy + " busy" + at + ")";
  }
}
