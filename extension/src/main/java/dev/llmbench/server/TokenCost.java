package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a level's tokens cost on its deployment, from a price per GPU-hour and a GPU count ({@link DeploymentFacts}),
 * as inference-perf defines it: the accelerators' dollars per second over the tokens per second, times a million.
 * Input and output are each charged the whole GPU time (the server makes both in the same steps), so they are two
 * views of one bill, not two parts of it.
 *
 * @param gpuHourPrice  dollars per GPU-hour
 * @param gpuCount      GPUs the deployment holds
 * @param window        the level's window, over which the GPUs are charged
 * @param outputTokens  output tokens of the level's successful requests
 * @param inputTokens   prompt tokens of the level's successful requests
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TokenCost(double gpuHourPrice, int gpuCount, Duration window, long outputTokens, long inputTokens) {

  /**
   * {@return the level's cost when its deployment has a price and a GPU count; empty otherwise}
   *
   * @param facts        what the suite said about the deployment
   * @param window       the level's window
   * @param outputTokens output tokens of its successful requests
   * @param inputTokens  prompt tokens of its successful requests
   */
  public static Optional<TokenCost> of(DeploymentDescription facts, Duration window, long outputTokens, long inputTokens) {
    if (facts.gpuHourPrice() <= 0 || facts.gpuCount() <= 0 || window.isZero() || window.isNegative()) {
      return Optional.empty();
    }
    return Optional.of(new TokenCost(facts.gpuHourPrice(), facts.gpuCount(), window, outputTokens, inputTokens));
  }

  /** {@return dollars the GPUs cost over the window: price × GPUs × window in hours} */
  public double dollars() {
    return gpuHourPrice * gpuCount * window.toNanos() / 3.6e12;
  }

  /** {@return dollars per million output tokens: cost / output tokens × 10⁶; NaN without output tokens} */
  public double dollarsPerMillionOutputTokens() {
    return outputTokens == 0 ? Double.NaN : dollars() / outputTokens * 1e6;
  }

  /** {@return dollars per million input (prompt) tokens: cost / prompt tokens × 10⁶; NaN without prompt tokens} */
  public double dollarsPerMillionInputTokens() {
    return inputTokens == 0 ? Double.NaN : dollars() / inputTokens * 1e6;
  }

  /** {@return {@code $1.234 per 1M output tokens, $0.120 per 1M input tokens (8 GPUs at $2.50/GPU-h)}} */
  public String describe() {
    StringBuilder s = new StringBuilder();
    if (!Double.isNaN(dollarsPerMillionOutputTokens())) s.append(money(dollarsPerMillionOutputTokens())).append(" per 1M output tokens");
    if (!Double.isNaN(dollarsPerMillionInputTokens())) {
      if (s.length() > 0) s.append(", ");
      s.append(money(dollarsPerMillionInputTokens())).append(" per 1M input tokens");
    }
    if (s.length() == 0) s.append("no tokens to charge");
    return s + String.format(java.util.Locale.ROOT, " (%d %s at $%.2f/GPU-h)", gpuCount, gpuCount == 1 ? "GPU" : "GPUs",
        gpuHourPrice);
  }

  /** {@code $1.234}: three decimals, so that a cheap deployment's cents show. */
  static String money(double dollars) {
    return String.format(java.util.Locale.ROOT, "$%.3f", dollars);
  }
}
