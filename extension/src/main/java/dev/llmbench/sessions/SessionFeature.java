package dev.llmbench.sessions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The sessions feature of a sweep with {@code @Sessions}: each level's figures by turn index (TTFT, TPOT, ITL and
 * latency, the history each turn sent, the prefix-cache hit where the server reports it), and two findings: later
 * turns slower than the first beyond noise, and a prefix cache that stops serving the history it was sent before.
 */
final class SessionFeature implements SweepFeature {

  /** A turn is compared only with this many successful requests: the quartiles of fewer say little of the noise. */
  static final int MIN_REQUESTS = 10;
  /** Later turns are "slower" only when their median TTFT is at least this much above the first turn's... */
  static final double SLOWER_RATIO = 1.25;
  /** ...and the cache "stops helping" when it serves less than this share of the history the turn resent. */
  static final double HELPING_SHARE = 0.5;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String describe;

  /** @param describe what the sessions are, for the section's first line */
  public SessionFeature(String describe) {
    this.describe = describe;
  }

  @Override
  public String key() {
    return "sessions";
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    List<TurnFigures> turns = TurnFigures.of(level.requests());
    if (turns.isEmpty()) return Optional.empty();
    ObjectNode json = JSON.createObjectNode();
    json.put("sessions", describe);
    // What the level sent, beside what the file holds: each session's first turn starts it.
    long sessionsSent = level.requests().stream().filter(r -> r.turn().orElse(0) == 1).count();
    long turnsSent = level.requests().stream().filter(r -> r.turn().isPresent()).count();
    json.put("sessions_sent", sessionsSent);
    json.put("turns_sent", turnsSent);
    ArrayNode rows = json.putArray("by_turn");
    List<String> console = new ArrayList<>();
    console.add(level.label() + " | sessions: " + sent(sessionsSent, turnsSent) + " of " + describe);
    console.add(level.label() + " | turn  requests  failed  TTFT p50  TTFT p90  TPOT p50  ITL p50  E2E p50  prompt tokens  cached");
    StringBuilder html = new StringBuilder("<table class=\"sessions\"><caption>").append(escape(level.label()))
        .append(": by turn</caption><tr><th>turn</th><th>requests</th><th>failed</th><th>TTFT p50 (ms)</th>"
            + "<th>TTFT p90 (ms)</th><th>TPOT p50 (ms)</th><th>ITL p50 (ms)</th><th>E2E p50 (ms)</th>"
            + "<th>prompt tokens</th><th>cached</th></tr>");
    for (TurnFigures t : turns) {
      ObjectNode r = rows.addObject();
      r.put("turn", t.turn());
      r.put("requests", t.requests());
      r.put("failed", t.failed());
      stat(r.putObject("ttft_ms"), t.ttftMs());
      stat(r.putObject("tpot_ms"), t.tpotMs());
      stat(r.putObject("itl_ms"), t.itlMs());
      stat(r.putObject("e2e_latency_ms"), t.e2eMs());
      stat(r.putObject("ttfo_ms"), t.ttfoMs());
      r.put("output_tokens_mean", t.outputTokens());
      r.put("prompt_tokens_mean", t.promptTokens());
      if (t.cachedTokens().isPresent()) r.put("cached_tokens_mean", t.cachedTokens().getAsDouble());
      if (t.cachedShare().isPresent()) r.put("cached_share", t.cachedShare().getAsDouble());
      String cached = t.cachedShare().isPresent() ? Formats.percent(t.cachedShare().getAsDouble()) : "n/a";
      console.add(String.format(Locale.ROOT, "%s | %4d  %8d  %6d  %8s  %8s  %8s  %7s  %7s  %13s  %6s", level.label(), t.turn(),
          t.requests(), t.failed(), ms(t.ttftMs(), 50), ms(t.ttftMs(), 90), ms(t.tpotMs(), 50), ms(t.itlMs(), 50),
          ms(t.e2eMs(), 50), Formats.number(Math.round(t.promptTokens())), cached));
      html.append("<tr><td>").append(t.turn()).append("</td><td>").append(t.requests()).append("</td><td>").append(t.failed())
          .append("</td><td>").append(ms(t.ttftMs(), 50)).append("</td><td>").append(ms(t.ttftMs(), 90)).append("</td><td>")
          .append(ms(t.tpotMs(), 50)).append("</td><td>").append(ms(t.itlMs(), 50)).append("</td><td>").append(ms(t.e2eMs(), 50))
          .append("</td><td>").append(Math.round(t.promptTokens())).append("</td><td>").append(cached).append("</td></tr>");
    }
    html.append("</table>");
    List<String> findings = findings(level.label(), turns);
    if (!findings.isEmpty()) json.putArray("findings").addAll(findings.stream().map(JSON.getNodeFactory()::textNode).toList());
    console.addAll(findings.stream().map(f -> level.label() + " | finding: " + f).toList());
    // The findings go into the sweep's list once, from sweep(); the level's lines and JSON carry its own.
    return Optional.of(FeatureSection.titled("sessions by turn").withJson(json).withConsole(console).withHtml(html.toString()));
  }

  /** {@code 4 sessions sent (13 turns)}. */
  static String sent(long sessions, long turns) {
    return sessions + (sessions == 1 ? " session" : " sessions") + " sent (" + turns + (turns == 1 ? " turn)" : " turns)");
  }

  /** One line a level for the sweep's summary (its TTFT and cache by turn, the headline), and every level's findings. */
  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    List<String> findings = new ArrayList<>();
    List<String> console = new ArrayList<>();
    for (MeasuredLevel l : levels) {
      List<TurnFigures> turns = TurnFigures.of(l.requests());
      if (turns.isEmpty()) continue;
      console.add(l.label() + " | by turn: TTFT p50 " + String.join(", ", turns.stream().map(t -> ms(t.ttftMs(), 50)).toList())
          + " ms; prompt tokens " + String.join(", ", turns.stream().map(t -> Long.toString(Math.round(t.promptTokens())))
          .toList()) + "; cached " + String.join(", ", turns.stream().map(t -> t.cachedShare().isPresent()
          ? Formats.percent(t.cachedShare().getAsDouble()) : "n/a").toList()));
      findings.addAll(findings(l.label(), turns));
    }
    return console.isEmpty() ? Optional.empty()
        : Optional.of(FeatureSection.titled("sessions").withConsole(console).withFindings(findings));
  }

  /**
   * What a level's turns say: later turns slower than the first beyond noise (the later turn's lower quartile of
   * TTFT above the first turn's upper quartile, and its median at least {@value #SLOWER_RATIO} times the first's),
   * and the first turn at which the server's cache served less than half the history that turn resent (the turn
   * before's prompt is a prefix of it).
   */
  static List<String> findings(String label, List<TurnFigures> turns) {
    List<TurnFigures> compared = turns.stream().filter(t -> t.ttftMs().length >= MIN_REQUESTS).toList();
    List<String> out = new ArrayList<>();
    if (compared.size() >= 2 && compared.get(0).turn() == 1) {
      TurnFigures first = compared.get(0);
      TurnFigures last = compared.get(compared.size() - 1);
      double p50First = TurnFigures.percentile(first.ttftMs(), 50);
      double p50Last = TurnFigures.percentile(last.ttftMs(), 50);
      if (TurnFigures.percentile(last.ttftMs(), 25) > TurnFigures.percentile(first.ttftMs(), 75)
          && p50Last >= SLOWER_RATIO * p50First) {
        String cache = last.cachedShare().isPresent() ? ", with " + Formats.percent(last.cachedShare().getAsDouble())
            + " of its prompt from the cache" : ", the server saying nothing of its cache";
        out.add(String.format(Locale.ROOT, "%s: later turns are slower beyond noise: turn %d's median TTFT is %.1f ms against "
            + "turn 1's %.1f ms (x%.1f; their interquartile ranges do not overlap), at %s prompt tokens against %s%s: longer "
            + "histories prefilled again, KV-cache pressure or eviction", label, last.turn(), p50Last, p50First, p50Last / p50First, Formats.number(Math.round(last.promptTokens())),
            Formats.number(Math.round(first.promptTokens())), cache));
      }
    }
    for (int i = 1; i < turns.size(); i++) {
      TurnFigures before = turns.get(i - 1);
      TurnFigures t = turns.get(i);
      if (t.turn() != before.turn() + 1 || t.cachedShare().isEmpty() || t.ttftMs().length < MIN_REQUESTS
          || t.promptTokens() <= 0) {
        continue;
      }
      double history = Math.min(1, before.promptTokens() / t.promptTokens()); // the share a cache could serve
      double served = t.cachedShare().getAsDouble();
      if (history > 0.2 && served < HELPING_SHARE * history) {
        boolean helpedBefore = turns.subList(1, i).stream().anyMatch(b -> b.cachedShare().orElse(0) >= HELPING_SHARE
            * Math.min(1, previousPrompt(turns, b) / b.promptTokens()));
        out.add(String.format(Locale.ROOT, "%s: the prefix cache %s at turn %d: it served %s of the prompt, though the "
            + "history the turn resent is %s of it (cache eviction between turns, too small a cache, or sessions routed "
            + "to replicas without their history)", label, helpedBefore ? "stops helping" : "does not help", t.turn(),
            Formats.percent(served), Formats.percent(history)));
        break;
      }
    }
    return out;
  }

  private static double previousPrompt(List<TurnFigures> turns, TurnFigures t) {
    int i = turns.indexOf(t);
    return i <= 0 ? 0 : turns.get(i - 1).promptTokens();
  }

  private static void stat(ObjectNode node, double[] sorted) {
    node.put("count", sorted.length);
    if (sorted.length == 0) return;
    node.put("p50", TurnFigures.percentile(sorted, 50));
    node.put("p90", TurnFigures.percentile(sorted, 90));
    node.put("p99", TurnFigures.percentile(sorted, 99));
    node.put("mean", java.util.Arrays.stream(sorted).average().orElse(Double.NaN));
  }

  private static String ms(double[] sorted, double p) {
    return sorted.length == 0 ? "-" : String.format(Locale.ROOT, "%.1f", TurnFigures.percentile(sorted, p));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
