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
  /** A row is compared only with this many successful requests: the quartiles of fewer say little of the noise. */
  static final int MIN_REQUESTS = 10;
  /** Later turns are "slower" only when their median TTFT is at least this much above the first turn's. */
  static final double SLOWER = 1.25;
  /** Fan-out "stalls" the parents when they wait at least this share of their wall time for sub-agents. */
  static final double STALL = 0.25;

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
    List<dev.llmbench.internal.client.RequestTrace> traces = metrics.stream().map(RequestMetrics::trace).toList();
    AgentRuns.Level runs = AgentRuns.of(g, traces);
    return runs.agents().isEmpty() ? Optional.empty() : Optional.of(new Figures(runs.agents(),
        TurnRows.byTurn(runs.agentTurns()), TurnRows.byContext(traces), runs.lanes()));
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    Optional<Figures> found = figures(agents, level);
    if (found.isEmpty()) return Optional.empty();
    Figures f = found.get();
    ObjectNode json = JSON.createObjectNode();
    json.put("trace", describe(level));
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
    ObjectNode path = json.putObject("critical_path");
    ObjectNode pathMs = path.putObject("ms");
    pathMs.put("p50", f.pathMs(50));
    pathMs.put("p90", f.pathMs(90));
    pathMs.put("max", f.pathMs(100));
    path.put("model_share", f.pathModelShare());
    path.put("tool_share", f.pathToolShare());
    path.put("sub_agent_share", f.pathSubAgentShare());
    path.put("other_share", f.pathOtherShare());
    var sessions = json.putArray("sessions");
    for (int i = 0; i < f.agents().size(); i++) {
      AgentRuns.Agent a = f.agents().get(i);
      ObjectNode n = sessions.addObject();
      n.put("agent", i + 1);
      n.put("complete", a.complete());
      n.put("turns", a.turns());
      n.put("sub_agents", a.subAgents());
      n.put("wall_ms", a.wallNanos() / 1e6);
      ObjectNode p = n.putObject("critical_path");
      p.put("ms", a.path().nanos() / 1e6);
      p.put("model_ms", a.path().modelNanos() / 1e6);
      p.put("tool_ms", a.path().toolNanos() / 1e6);
      p.put("sub_agent_ms", a.path().subAgentNanos() / 1e6);
      p.put("other_ms", a.path().otherNanos() / 1e6);
    }
    rows(json.putArray("by_turn"), f.byTurn(), "turn");
    rows(json.putArray("by_context"), f.byContext(), "prompt_tokens_from");
    List<String> findings = f.findings(level.label());
    if (!findings.isEmpty()) json.putArray("findings").addAll(findings.stream().map(JSON.getNodeFactory()::textNode).toList());
    List<String> console = new ArrayList<>(List.of(level.label() + " | agents: " + describe(level), level.label() + " | "
        + f.line(), level.label() + " | " + f.pathLine(), level.label() + " | by turn: TTFT p50 " + String.join(", ", f.byTurn().stream().map(r -> ms(r.ttftMs(), 50))
        .toList()) + " ms; cached " + cached(f.byTurn()), level.label() + " | by prompt length: " + String.join(", ",
        f.byContext().stream().map(r -> r.context() + " TTFT p50 " + ms(r.ttftMs(), 50) + " ms, cached "
        + r.cachedShare().stream().mapToObj(Formats::percent).findFirst().orElse("n/a")).toList())));
    findings.forEach(x -> console.add(level.label() + " | finding: " + x));
    String html = "<table class=\"agents\"><caption>" + escape(level.label()) + ": agents</caption><tr><th>started</th>"
        + "<th>completed</th><th>sub-agents</th><th>turns per agent</th><th>wall p50 (ms)</th><th>wall p90 (ms)</th>"
        + "<th>in the model</th><th>in tools</th><th>waiting for sub-agents</th></tr><tr><td>" + f.started() + "</td><td>"
        + f.completed() + "</td><td>" + f.subAgents() + "</td><td>" + String.format(Locale.ROOT, "%.1f", f.turnsMean())
        + "</td><td>" + ms(f.wallMs(50)) + "</td><td>" + ms(f.wallMs(90)) + "</td><td>" + Formats.percent(f.modelShare())
        + "</td><td>" + Formats.percent(f.toolShare()) + "</td><td>" + Formats.percent(f.subAgentShare())
        + "</td></tr></table><table class=\"agents\"><caption>" + escape(level.label()) + ": critical path (the chain of "
        + "turns, tool gaps and sub-agents' turns that set an agent's wall time)</caption><tr><th>p50 (ms)</th><th>p90 (ms)"
        + "</th><th>max (ms)</th><th>in the model</th><th>in tools</th><th>through sub-agents</th><th>other</th></tr><tr><td>"
        + ms(f.pathMs(50)) + "</td><td>" + ms(f.pathMs(90)) + "</td><td>" + ms(f.pathMs(100)) + "</td><td>"
        + Formats.percent(f.pathModelShare()) + "</td><td>" + Formats.percent(f.pathToolShare()) + "</td><td>"
        + Formats.percent(f.pathSubAgentShare()) + "</td><td>" + Formats.percent(f.pathOtherShare()) + "</td></tr></table>"
        + table(level.label() + ": agents' turns", "turn", f.byTurn(), false)
        + table(level.label() + ": by prompt length", "prompt tokens", f.byContext(), true);
    return Optional.of(FeatureSection.titled("agents").withJson(json).withConsole(console).withHtml(html));
  }

  /** One line a level for the sweep's summary, and an {@link AgentCapacity} search's answer per tier. */
  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    List<String> console = new ArrayList<>();
    List<String> findings = new ArrayList<>();
    java.util.Map<String, String> charts = new java.util.LinkedHashMap<>();
    for (MeasuredLevel l : levels) {
      figures(agents, l).ifPresent(f -> {
        console.add(l.label() + " | " + f.line());
        console.add(l.label() + " | " + f.pathLine());
        findings.addAll(f.findings(l.label()));
        // The name is the chart's file name: a level's label may hold a slash (rate=20/s) or spaces.
        charts.put("agents-" + l.label().replaceAll("[^A-Za-z0-9=._-]+", "-"), AgentLanes.svg(sweep == null ? l.label() : sweep.title() + ", " + l.label()
            + ": agents over time", f.lanes()));
      });
    }
    AgentCapacities capacities = found;
    if (capacities == null) {
      return console.isEmpty() ? Optional.empty()
          : Optional.of(FeatureSection.titled("agents").withConsole(console).withFindings(findings).withCharts(charts));
    }
    ObjectNode json = JSON.createObjectNode();
    var tiers = json.putArray("capacity_by_tier");
    StringBuilder html = new StringBuilder("<table class=\"agents\"><caption>agents in flight each tier holds</caption>"
        + "<tr><th>tier</th><th>holds</th><th>fails at</th><th>what broke</th><th>confidence</th></tr>");
    for (AgentCapacities.Tier t : capacities.tiers()) {
      ObjectNode n = tiers.addObject();
      n.put("tier", t.name());
      n.put("agents", t.agents());
      if (t.failedAt().isPresent()) n.put("failed_at", t.failedAt().getAsInt());
      if (!t.brokenBy().isEmpty()) n.put("broken_by", t.brokenBy());
      n.put("closed", t.closed());
      if (!Double.isNaN(t.confidence())) n.put("confidence", t.confidence());
      if (!Double.isNaN(t.holdsConfidence())) n.put("holds_confidence", t.holdsConfidence());
      if (!Double.isNaN(t.failsConfidence())) n.put("fails_confidence", t.failsConfidence());
      console.add("capacity " + t.statement());
      html.append("<tr><td>").append(escape(t.name())).append("</td><td>").append(t.agents()).append("</td><td>")
          .append(t.failedAt().isPresent() ? Integer.toString(t.failedAt().getAsInt()) : "-").append("</td><td>")
          .append(escape(t.brokenBy())).append("</td><td>").append(Double.isNaN(t.confidence()) ? "-"
              : Formats.percent(t.confidence())).append("</td></tr>");
    }
    html.append("</table>");
    return Optional.of(FeatureSection.titled("agents").withConsole(console).withFindings(findings).withCharts(charts)
        .withJson(json).withHtml(html.toString())
        .withLead(String.join("; ", capacities.tiers().stream().map(AgentCapacities.Tier::statement).toList())));
  }

  /**
   * A level's agents, whole: each agent's figures, their own turns by index, and every request by prompt length.
   */
  record Figures(List<AgentRuns.Agent> agents, List<TurnRows> byTurn, List<TurnRows> byContext, List<AgentRuns.Lane> lanes) {
    Figures {
      agents = List.copyOf(agents);
      byTurn = List.copyOf(byTurn);
      byContext = List.copyOf(byContext);
      lanes = List.copyOf(lanes);
    }

    /**
     * What the level's agents say: later turns slower than the first beyond noise (the later turn's lower quartile of
     * TTFT above the first's upper quartile, its median at least {@value #SLOWER} times the first's); the prefix cache
     * serving less than half of the prompts past some length after serving more below it; agents waiting for their
     * sub-agents at least {@value #STALL} of their wall time beyond their tools'.
     */
    List<String> findings(String label) {
      List<String> out = new ArrayList<>();
      List<TurnRows> compared = byTurn.stream().filter(r -> r.ttftMs().length >= MIN_REQUESTS).toList();
      if (compared.size() >= 2 && compared.get(0).key() == 1) {
        TurnRows first = compared.get(0);
        TurnRows last = compared.get(compared.size() - 1);
        double p50First = TurnRows.percentile(first.ttftMs(), 50);
        double p50Last = TurnRows.percentile(last.ttftMs(), 50);
        if (TurnRows.percentile(last.ttftMs(), 25) > TurnRows.percentile(first.ttftMs(), 75) && p50Last >= SLOWER * p50First) {
          out.add(String.format(Locale.ROOT, "%s: the agents' TTFT grows with the turn beyond noise: turn %d's median is "
              + "%.1f ms against turn 1's %.1f ms (x%.1f; their interquartile ranges do not overlap), at %s prompt tokens "
              + "against %s", label, last.key(), p50Last, p50First, p50Last / p50First,
              Formats.number(Math.round(last.promptTokens())), Formats.number(Math.round(first.promptTokens()))));
        }
      }
      TurnRows served = null;
      for (TurnRows r : byContext) {
        if (r.ttftMs().length < MIN_REQUESTS || r.cachedShare().isEmpty()) continue;
        double share = r.cachedShare().getAsDouble();
        if (share >= 0.5 && served == null) served = r;
        if (share < 0.5 && served != null) {
          out.add(String.format(Locale.ROOT, "%s: the prefix cache stops serving the agents' history past about %s prompt "
              + "tokens: it served %s of the prompts of %s tokens, against %s of those of %s (KV-cache capacity, eviction "
              + "between turns, or sessions routed to replicas without their history)", label,
              Formats.number(r.key()), Formats.percent(share), r.context(), Formats.percent(served.cachedShare().getAsDouble()),
              served.context()));
          break;
        }
      }
      if (subAgents() > 0 && subAgentShare() >= STALL) {
        out.add(String.format(Locale.ROOT, "%s: fan-out stalls the parents: the agents waited for their sub-agents %s of "
            + "their wall time beyond their tools' (a parent's next turn waits for its slowest sub-agent); their critical "
            + "path runs %s of its length through sub-agents (critical path p50 %s ms: %s in the model, %s in tools)", label,
            Formats.percent(subAgentShare()), Formats.percent(pathSubAgentShare()), ms(pathMs(50)),
            Formats.percent(pathModelShare()), Formats.percent(pathToolShare())));
      }
      return out;
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

    /** The {@code p}th percentile of the completed agents' critical paths, ms; NaN when none completed. */
    double pathMs(double p) {
      double[] w = agents.stream().filter(AgentRuns.Agent::complete).mapToDouble(a -> a.path().nanos() / 1e6).sorted()
          .toArray();
      return w.length == 0 ? Double.NaN : Percentiles.of(w, p);
    }

    private double pathShare(java.util.function.ToLongFunction<AgentRuns.CriticalPath> part) {
      long length = agents.stream().mapToLong(a -> a.path().nanos()).sum();
      return length == 0 ? 0 : (double) agents.stream().mapToLong(a -> part.applyAsLong(a.path())).sum() / length;
    }

    /** The share of the agents' critical paths in the server (sub-agents' turns on them included). */
    double pathModelShare() {
      return pathShare(AgentRuns.CriticalPath::modelNanos);
    }

    /** The share in tools. */
    double pathToolShare() {
      return pathShare(AgentRuns.CriticalPath::toolNanos);
    }

    /** The share that runs through sub-agents. */
    double pathSubAgentShare() {
      return pathShare(AgentRuns.CriticalPath::subAgentNanos);
    }

    /** The share that is neither model nor tool time. */
    double pathOtherShare() {
      return pathShare(AgentRuns.CriticalPath::otherNanos);
    }

    /** E.g. {@code critical path p50 812.4 ms, p90 ...: in the model 60.0%, in tools 38.0%, through sub-agents 20.0%}. */
    String pathLine() {
      return String.format(Locale.ROOT, "critical path p50 %s ms, p90 %s ms: in the model %s, in tools %s, other %s; "
          + "through sub-agents %s", ms(pathMs(50)), ms(pathMs(90)), Formats.percent(pathModelShare()),
          Formats.percent(pathToolShare()), Formats.percent(pathOtherShare()), Formats.percent(pathSubAgentShare()));
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

  /** The agents a level sent, as its own workload says (a replay's levels each have theirs). */
  private String describe(MeasuredLevel level) {
    return level.plan().workload().prompts().sessions().filter(AgentWorkload.class::isInstance)
        .map(a -> ((AgentWorkload) a).describe()).orElse(agents.describe());
  }

  private static void rows(com.fasterxml.jackson.databind.node.ArrayNode out, List<TurnRows> rows, String key) {
    for (TurnRows r : rows) {
      ObjectNode n = out.addObject();
      n.put(key, r.key());
      n.put("requests", r.requests());
      n.put("failed", r.failed());
      ObjectNode ttft = n.putObject("ttft_ms");
      ttft.put("p50", TurnRows.percentile(r.ttftMs(), 50));
      ttft.put("p90", TurnRows.percentile(r.ttftMs(), 90));
      ObjectNode tpot = n.putObject("tpot_ms");
      tpot.put("p50", TurnRows.percentile(r.tpotMs(), 50));
      tpot.put("p90", TurnRows.percentile(r.tpotMs(), 90));
      n.put("prompt_tokens_mean", r.promptTokens());
      if (r.cachedShare().isPresent()) n.put("cached_share", r.cachedShare().getAsDouble());
    }
  }

  private static String table(String caption, String first, List<TurnRows> rows, boolean context) {
    StringBuilder html = new StringBuilder("<table class=\"agents\"><caption>").append(escape(caption))
        .append("</caption><tr><th>").append(first).append("</th><th>requests</th><th>failed</th><th>TTFT p50 (ms)</th>"
            + "<th>TTFT p90 (ms)</th><th>TPOT p50 (ms)</th><th>prompt tokens</th><th>cached</th></tr>");
    for (TurnRows r : rows) {
      html.append("<tr><td>").append(context ? r.context() : Integer.toString(r.key())).append("</td><td>").append(r.requests())
          .append("</td><td>").append(r.failed()).append("</td><td>").append(ms(r.ttftMs(), 50)).append("</td><td>")
          .append(ms(r.ttftMs(), 90)).append("</td><td>").append(ms(r.tpotMs(), 50)).append("</td><td>")
          .append(Math.round(r.promptTokens())).append("</td><td>")
          .append(r.cachedShare().stream().mapToObj(Formats::percent).findFirst().orElse("n/a")).append("</td></tr>");
    }
    return html.append("</table>").toString();
  }

  private static String cached(List<TurnRows> rows) {
    return String.join(", ", rows.stream().map(r -> r.cachedShare().stream().mapToObj(Formats::percent).findFirst()
        .orElse("n/a")).toList());
  }

  private static String ms(double[] sorted, double p) {
    return sorted.length == 0 ? "-" : String.format(Locale.ROOT, "%.1f", TurnRows.percentile(sorted, p));
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
