package dev.llmbench.capacity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The capacity search of a sweep with a {@code @CapacitySearch}: what each search found, one per deployment
 * searched, told to the reports as the sweep's conclusions and its {@code capacity.json}. The searches add
 * their answers as they conclude, before the sweep finishes and the reports ask.
 */
final class CapacityFeature implements SweepFeature {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final List<Capacity> found = new ArrayList<>();

  /** The feature among a sweep's, if it searches for capacity. */
  public static Optional<CapacityFeature> of(SweepRun sweep) {
    return sweep.features().stream().filter(CapacityFeature.class::isInstance).map(CapacityFeature.class::cast).findFirst();
  }

  @Override
  public String key() {
    return "capacity";
  }

  public synchronized void add(Capacity capacity) {
    found.add(capacity);
  }

  public synchronized List<Capacity> all() {
    return List.copyOf(found);
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    List<Capacity> all = all();
    return Optional.of(FeatureSection.titled("capacity").withFindings(all.stream().map(Capacity::statement).toList())
        .withFiles(List.of(FeatureSection.Attachment.json("capacity", json(all)))));
  }

  /** What capacity searches found: the answer, the levels either side and every probe, with whether it met the SLO. */
  static String json(List<Capacity> found) {
    ArrayNode all = JSON.createArrayNode();
    for (Capacity c : found) {
      ObjectNode n = all.addObject();
      c.deployment().ifPresent(d -> n.put("deployment", d));
      n.put("outcome", c.outcome().name());
      n.put("statement", c.statement());
      n.put("slo", c.slo().toString());
      n.put("searched", c.closedLoop() ? "concurrency" : "request_rate");
      n.put("low", c.low());
      n.put("high", c.high());
      n.put("step", c.step());
      n.put("capacity", c.load());
      c.atCapacity().ifPresent(l -> n.put("at_capacity", l.label()));
      c.tokenCost().ifPresent(t -> {
        if (!Double.isNaN(t.dollarsPerMillionOutputTokens())) {
          n.put("cost_per_million_output_tokens_usd", t.dollarsPerMillionOutputTokens());
        }
        if (!Double.isNaN(t.dollarsPerMillionInputTokens())) {
          n.put("cost_per_million_input_tokens_usd", t.dollarsPerMillionInputTokens());
        }
      });
      c.beyond().ifPresent(l -> n.put("beyond", l.label()));
      ArrayNode probes = n.putArray("probes");
      for (SweepLevelResult l : c.probes()) {
        ObjectNode p = probes.addObject();
        p.put("label", l.label());
        p.put("meets_slo", SloCheck.meets(l, c.slo()));
        ArrayNode violations = p.putArray("violations");
        SloCheck.violations(l, c.slo()).forEach(violations::add);
        p.put(Metric.SLO_ATTAINMENT.key(), l.sloAttainment());
        p.put(Metric.GOODPUT.vllmName().orElseThrow(), l.goodput().perSecond());
        p.put(Metric.OUTPUT_THROUGHPUT.key(), l.outputThroughput().perSecond());
      }
    }
    try {
      return JSON.writeValueAsString(all);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
