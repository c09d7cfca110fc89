package dev.llmbench.deployments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.server.TokenCost;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a level's tokens cost on its deployment ({@link SweepLevelResult#tokenCost()}), beside the joules per token
 * when GPU telemetry gives them: {@code llmbench.token_cost}, the console's {@code cost:} line and the page's row.
 */
final class CostReading implements LevelReading {

  @Override
  public Place place() {
    return Place.DEPLOYMENT;
  }

  @Override
  public String field() {
    return "token_cost";
  }

  @Override
  public Optional<JsonNode> json(SweepLevelResult level) {
    return level.tokenCost().map(c -> {
      ObjectNode n = ResultJson.MAPPER.createObjectNode();
      n.put("gpu_count", c.gpuCount());
      n.put("gpu_hour_price_usd", c.gpuHourPrice());
      n.put("cost_usd", c.dollars());
      put(n, "cost_per_million_output_tokens_usd", c.dollarsPerMillionOutputTokens());
      put(n, "cost_per_million_input_tokens_usd", c.dollarsPerMillionInputTokens());
      joules(level).ifPresent(j -> n.put("energy_per_output_token_j", j));
      return n;
    });
  }

  @Override
  public Optional<String> console(SweepLevelResult level) {
    return level.tokenCost().map(c -> "cost: " + text(level, c));
  }

  @Override
  public List<Row> html(SweepLevelResult level) {
    return level.tokenCost().map(c -> List.of(new Row("token cost", text(level, c)))).orElse(List.of());
  }

  /** {@code $1.234 per 1M output tokens, $0.120 per 1M input tokens (8 GPUs at $2.50/GPU-h) | 0.2500 J/token}. */
  private static String text(SweepLevelResult level, TokenCost c) {
    return c.describe() + joules(level).map(j -> String.format(Locale.ROOT, " | %.4f J/token", j)).orElse("");
  }

  private static Optional<Double> joules(SweepLevelResult level) {
    return level.gpuTelemetry().flatMap(g -> g.joulesPerOutputToken());
  }

  private static void put(ObjectNode n, String name, double v) {
    if (!Double.isNaN(v)) n.put(name, v);
  }
}
