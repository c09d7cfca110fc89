package dev.llmbench.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.math3.stat.interval.ConfidenceInterval;
import org.apache.commons.math3.stat.interval.WilsonScoreInterval;

/**
 * Says, of each level whose replies were checked, how many were unparsed and why, and the time to the first tool
 * call; of an embeddings level, its inputs and tokens per second; of the sweep, when the unparsed rate rises with
 * load beyond noise: the 95% Wilson intervals of the lightest and the heaviest level (of one deployment) do not
 * overlap. That is a serving bug (a parser, a grammar or a batch that breaks structured replies under load), as
 * AIPerf's tool-calling accuracy is read.
 */
final class ReplyFeature implements SweepFeature {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int REASONS = 5;

  @Override
  public String key() {
    return "replies";
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    if (level.isEmbeddings()) return Optional.of(embeddings(level));
    if (level.checkedReplies() == 0) return Optional.empty();
    ObjectNode json = JSON.createObjectNode();
    json.put("checked", level.checkedReplies());
    json.put("unparsed", level.unparsedReplies());
    json.put("unparsed_rate", level.unparsedRate());
    ConfidenceInterval ci = wilson(level);
    json.putArray("unparsed_rate_ci95").add(ci.getLowerBound()).add(ci.getUpperBound());
    Map<String, Long> reasons = reasons(level);
    ObjectNode why = json.putObject("reasons");
    reasons.forEach(why::put);
    Distribution tool = level.toolCallTtft();
    if (!tool.isEmpty()) {
      ObjectNode t = json.putObject("tool_call_ttft_ms");
      t.put("count", tool.count());
      t.put("mean", ms(tool.mean()));
      for (double p : level.percentiles()) t.put(Formats.percentile(p), ms(tool.percentile(p)));
    }
    List<String> console = new ArrayList<>();
    console.add(String.format(Locale.ROOT, "%s: %d of %d checked replies unparsed (%s)%s", level.label(),
        level.unparsedReplies(), level.checkedReplies(), Formats.percent(level.unparsedRate()),
        tool.isEmpty() ? "" : "; time to first tool call p50 " + tool.percentile(50).map(Formats::duration).orElse("-")));
    reasons.entrySet().stream().limit(REASONS).forEach(e -> console.add("  " + e.getValue() + " x " + e.getKey()));
    return Optional.of(FeatureSection.titled("structured replies").withJson(json).withConsole(console));
  }

  private static FeatureSection embeddings(MeasuredLevel level) {
    ObjectNode json = JSON.createObjectNode();
    long inputs = level.metrics().stream().filter(RequestResult::succeeded).mapToLong(m -> m.trace().embeddings()).sum();
    json.put("inputs", inputs);
    json.put("input_throughput", level.inputThroughput().perSecond());
    json.put("prompt_tokens", level.promptTokens());
    json.put("token_throughput", level.totalTokenThroughput().perSecond());
    json.put("request_throughput", level.requestThroughput().perSecond());
    String line = String.format(Locale.ROOT, "%s: embeddings, %d inputs in %d requests: %.1f inputs/s, %.1f tok/s, latency p50 %s",
        level.label(), inputs, level.succeeded(), level.inputThroughput().perSecond(), level.totalTokenThroughput().perSecond(),
        level.e2eLatency().percentile(50).map(Formats::duration).orElse("-"));
    return FeatureSection.titled("embeddings").withJson(json).withConsole(List.of(line));
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    Map<String, List<MeasuredLevel>> byDeployment = new LinkedHashMap<>();
    for (MeasuredLevel l : levels) {
      if (l.checkedReplies() > 0) byDeployment.computeIfAbsent(l.endpoint().deployment().orElse(""), k -> new ArrayList<>()).add(l);
    }
    List<String> findings = new ArrayList<>();
    ArrayNode json = JSON.createArrayNode();
    for (List<MeasuredLevel> group : byDeployment.values()) {
      if (group.size() < 2) continue;
      List<MeasuredLevel> sorted = group.stream().sorted(Comparator.comparingDouble(ReplyFeature::load)).toList();
      MeasuredLevel light = sorted.get(0);
      MeasuredLevel heavy = sorted.get(sorted.size() - 1);
      if (load(heavy) <= load(light)) continue;
      ConfidenceInterval low = wilson(light);
      ConfidenceInterval high = wilson(heavy);
      if (heavy.unparsedRate() <= light.unparsedRate() || high.getLowerBound() <= low.getUpperBound()) continue;
      String example = reasons(heavy).keySet().stream().findFirst().map(r -> "; e.g. " + r).orElse("");
      findings.add(String.format(Locale.ROOT, "unparsed rate rises with load: %s [%s-%s] of %d checked replies at %s, %s [%s-%s] "
          + "of %d at %s: structured replies (tool-call arguments, JSON answers) break under load, a serving bug to fix "
          + "before trusting the speed%s", Formats.percent(light.unparsedRate()), Formats.percent(low.getLowerBound()),
          Formats.percent(low.getUpperBound()), light.checkedReplies(), light.label(), Formats.percent(heavy.unparsedRate()),
          Formats.percent(high.getLowerBound()), Formats.percent(high.getUpperBound()), heavy.checkedReplies(), heavy.label(),
          example));
      json.addObject().put("kind", "unparsed_rises_with_load").put("from", light.label()).put("to", heavy.label())
          .put("from_rate", light.unparsedRate()).put("to_rate", heavy.unparsedRate());
    }
    if (findings.isEmpty()) return Optional.empty();
    ObjectNode root = JSON.createObjectNode();
    root.set("findings", json);
    return Optional.of(FeatureSection.titled("structured replies").withJson(root).withConsole(findings).withFindings(findings));
  }

  /** How much load a level offered: C for a closed loop, the rate for an open one. */
  private static double load(MeasuredLevel l) {
    return l.load() instanceof LoadShape.OpenLoop o ? o.rate().perSecond() : l.concurrency();
  }

  private static ConfidenceInterval wilson(MeasuredLevel l) {
    return new WilsonScoreInterval().createInterval((int) l.checkedReplies(), (int) l.unparsedReplies(), 0.95);
  }

  /** Each distinct reason a reply was unparsed, with its count, commonest first. */
  static Map<String, Long> reasons(MeasuredLevel level) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (RequestResult r : level.requests()) r.unparsedBecause().ifPresent(why -> counts.merge(why, 1L, Long::sum));
    Map<String, Long> sorted = new LinkedHashMap<>();
    counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  private static double ms(Optional<Duration> d) {
    return d.map(v -> v.toNanos() / 1e6).orElse(Double.NaN);
  }
}
