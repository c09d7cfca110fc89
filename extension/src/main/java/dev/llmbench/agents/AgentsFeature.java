package dev.llmbench.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The agents of a sweep with {@code @AgentTrace}, per level: how many agents started and completed (every turn of
 * theirs and of their sub-agents answered), each agent's wall time, and where it went: in the model, in its tools,
 * waiting for its sub-agents.
 */
final class AgentsFeature implements SweepFeature {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final AgentWorkload agents;
  private volatile AgentCapacities found; // an @AgentCapacity's answer, once its search has ended

  AgentsFeature(AgentWorkload agents) {
    this.agents = agents;
  }

  /** The agents' feature of {@code sweep}, if it has one. */
  static Optional<AgentsFeature> of(SweepRun sweep) {
    return sweep.features().stream().filter(AgentsFeature.class::isInstance).map(AgentsFeature.class::cast).findFirst();
  }

  /** An {@link AgentCapacity} search has ended with {@code capacities}: the sweep's section says them. */
  void found(AgentCapacities capacities) {
    this.found = capacities;
  }

  @Override
  public String key() {
    return "agents";
  }

  /**
   * What a level's agents did, from the ledger of the level's own agents (a replay's levels each have theirs); empty when
   * it holds none of it (a level read back from its files).
   */
  static Optional<Figures> figures(AgentWorkload sweeps, MeasuredLevel level) {
    AgentWorkload agents = level.plan().workload().prompts().sessions().filter(AgentWorkload.class::isInstance)
        .map(AgentWorkload.class::cast).orElse(sweeps);
    List<RequestMetrics> metrics = level.metrics();
    if (metrics.isEmpty()) return Optional.empty();
    long first = metrics.stream().mapToLong(m -> m.trace().startNanos()).min().orElseThrow();
    AgentLedger.Generation g = agents.ledger().at(first);
    if (g == null) return Optional.empty();
    List<AgentRuns.Agent> runs = AgentRuns.of(g, metrics.stream().map(RequestMetrics::trace).toList());
    return runs.isEmpty() ? Optional.empty() : Optional.of(new Figures(runs));
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    Optional<Figures> found = figures(agents, level);
    if (found.isEmpty()) return Optional.empty();
    Figures f = found.get();
    ObjectNode json = JSON.createObjectNode();
    json.put("trace", agents.describe());
    json.put("agents_started", f.started());
    json.put("agents_completed", f.completed());
    json.put("sub_agents", f.subAgents());
    json.put("turns_mean", f.turnsMean());
    ObjectNode wall = json.putObject("wall_ms");
    wall.put("p50", f.wallMs(50));
    wall.put("p90", f.wallMs(90));
    wall.put("max", f.wallMs(100));
    json.put("model_share", f.modelShare());
    json.put("tool_share", f.toolShare());
    json.put("sub_agent_wait_share", f.subAgentShare());
    json.put("prompt_tokens_mean", f.promptTokensMean());
    json.put("output_tokens_mean", f.outputTokensMean());
    List<String> console = List.of(level.label() + " | agents: " + agents.describe(), level.label() + " | " + f.line());
    String html = "<table class=\"agents\"><caption>" + escape(level.label()) + ": agents</caption><tr><th>started</th>"
        + "<th>completed</th><th>sub-agents</th><th>turns per agent</th><th>wall p50 (ms)</th><th>wall p90 (ms)</th>"
        + "<th>in the model</th><th>in tools</th><th>waiting for sub-agents</th></tr><tr><td>" + f.started() + "</td><td>"
        + f.completed() + "</td><td>" + f.subAgents() + "</td><td>" + String.format(Locale.ROOT, "%.1f", f.turnsMean())
        + "</td><td>" + ms(f.wallMs(50)) + "</td><td>" + ms(f.wallMs(90)) + "</td><td>" + Formats.percent(f.modelShare())
        + "</td><td>" + Formats.percent(f.toolShare()) + "</td><td>" + Formats.percent(f.subAgentShare())
        + "</td></tr></table>";
    return Optional.of(FeatureSection.titled("agents").withJson(json).withConsole(console).withHtml(html));
  }

  /** One line a level for the sweep's summary, and an {@link AgentCapacity} search's answer per tier. */
  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    List<String> console = new ArrayList<>();
    for (MeasuredLevel l : levels) figures(agents, l).ifPresent(f -> console.add(l.label() + " | " + f.line()));
    AgentCapacities capacities = found;
    if (capacities == null) {
      return console.isEmpty() ? Optional.empty() : Optional.of(FeatureSection.titled("agents").withConsole(console));
    }
    ObjectNode json = JSON.createObjectNode();
    var tiers = json.putArray("capacity_by_tier");
    StringBuilder html = new StringBuilder("<table class=\"agents\"><caption>agents in flight each tier holds</caption>"
        + "<tr><th>tier</th><th>holds</th><th>fails at</th><th>what broke</th></tr>");
    for (AgentCapacities.Tier t : capacities.tiers()) {
      ObjectNode n = tiers.addObject();
      n.put("tier", t.name());
      n.put("agents", t.agents());
      if (t.failedAt().isPresent()) n.put("failed_at", t.failedAt().getAsInt());
      if (!t.brokenBy().isEmpty()) n.put("broken_by", t.brokenBy());
      n.put("closed", t.closed());
      console.add("capacity " + t.statement());
      html.append("<tr><td>").append(escape(t.name())).append("</td><td>").append(t.agents()).append("</td><td>")
          .append(t.failedAt().isPresent() ? Integer.toString(t.failedAt().getAsInt()) : "-").append("</td><td>")
          .append(escape(t.brokenBy())).append("</td></tr>");
    }
    html.append("</table>");
    return Optional.of(FeatureSection.titled("agents").withConsole(console).withJson(json).withHtml(html.toString())
        .withLead(String.join("; ", capacities.tiers().stream().map(AgentCapacities.Tier::statement).toList())));
  }

  /** A level's agents, whole. */
  record Figures(List<AgentRuns.Agent> agents) {
    Figures {
      agents = List.copyOf(agents);
    }

    int started() {
      return agents.size();
    }

    int completed() {
      return (int) agents.stream().filter(AgentRuns.Agent::complete).count();
    }

    int subAgents() {
      return agents.stream().mapToInt(AgentRuns.Agent::subAgents).sum();
    }

    double turnsMean() {
      return agents.stream().mapToInt(AgentRuns.Agent::turns).average().orElse(0);
    }

    /** The {@code p}th percentile of the completed agents' wall times, ms; NaN when none completed. */
    double wallMs(double p) {
      double[] w = agents.stream().filter(AgentRuns.Agent::complete).mapToDouble(a -> a.wallNanos() / 1e6).sorted().toArray();
      return w.length == 0 ? Double.NaN : Percentiles.of(w, p);
    }

    private double share(java.util.function.ToLongFunction<AgentRuns.Agent> part) {
      long wall = agents.stream().mapToLong(AgentRuns.Agent::wallNanos).sum();
      return wall == 0 ? 0 : (double) agents.stream().mapToLong(part).sum() / wall;
    }

    /** The share of the agents' wall time their own turns spent in the server. */
    double modelShare() {
      return share(AgentRuns.Agent::modelNanos);
    }

    /** The share in their tools. */
    double toolShare() {
      return share(AgentRuns.Agent::toolNanos);
    }

    /** The share waiting for sub-agents beyond the tool time. */
    double subAgentShare() {
      return share(AgentRuns.Agent::subAgentNanos);
    }

    double promptTokensMean() {
      return agents.stream().mapToLong(AgentRuns.Agent::promptTokens).average().orElse(0);
    }

    double outputTokensMean() {
      return agents.stream().mapToLong(AgentRuns.Agent::outputTokens).average().orElse(0);
    }

    /** E.g. {@code 4 agents, 4 completed, 2 sub-agents, 3.0 turns each; wall p50 812.4 ms, p90 ...; model 40.1%, ...}. */
    String line() {
      return String.format(Locale.ROOT, "%d agents, %d completed, %d sub-agents, %.1f turns each; wall p50 %s ms, p90 %s ms; "
          + "time in the model %s, in tools %s, waiting for sub-agents %s", started(), completed(), subAgents(), turnsMean(),
          ms(wallMs(50)), ms(wallMs(90)), Formats.percent(modelShare()), Formats.percent(toolShare()),
          Formats.percent(subAgentShare()));
    }
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
