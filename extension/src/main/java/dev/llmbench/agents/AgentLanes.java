package dev.llmbench.agents;

import java.util.List;
import java.util.Locale;

/**
 * A level's agents over time as an SVG picture: a lane per agent, its turns (in the server) as dark bars, the time
 * between them (tools, waiting for sub-agents) as a light band, each sub-agent's turns on a thinner row beneath, and the
 * agent's critical path (the chain that set its wall time) as a red line along the rows it runs on.
 */
final class AgentLanes {

  /** At most this many lanes are drawn, the first agents the level started. */
  static final int MAX_LANES = 40;
  private static final int WIDTH = 900;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int ROW = 12;
  private static final int SUB_ROW = 6;
  private static final int GAP = 4;

  private AgentLanes() {}

  /** The picture of {@code lanes} titled {@code title}. */
  static String svg(String title, List<AgentRuns.Lane> lanes) {
    List<AgentRuns.Lane> drawn = lanes.subList(0, Math.min(MAX_LANES, lanes.size()));
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    for (AgentRuns.Lane l : drawn) {
      for (long[] t : l.turns()) {
        from = Math.min(from, t[0]);
        to = Math.max(to, t[1]);
      }
      for (List<long[]> s : l.subAgents()) for (long[] t : s) to = Math.max(to, t[1]);
    }
    if (from == Long.MAX_VALUE) from = to = 0;
    double span = Math.max(1, to - from);
    int height = TOP + 30;
    for (AgentRuns.Lane l : drawn) height += ROW + SUB_ROW * l.subAgents().size() + GAP;
    double plot = WIDTH - LEFT - RIGHT;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">", WIDTH, height, WIDTH, height));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\">%s</text>", LEFT, escape(title
        + (lanes.size() > drawn.size() ? " (the first " + drawn.size() + " of " + lanes.size() + " agents)" : ""))));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"32\" fill=\"#555\">dark: a turn in the server; light: "
        + "tools and waiting; orange: sub-agents' turns; red line: the critical path</text>", LEFT));
    int y = TOP;
    for (int i = 0; i < drawn.size(); i++) {
      AgentRuns.Lane l = drawn.get(i);
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">agent %d</text>", LEFT - 6,
          y + ROW - 2, i + 1));
      List<long[]> turns = l.turns();
      if (!turns.isEmpty()) {
        rect(svg, x(turns.get(0)[0], from, span, plot), y + 3, x(turns.get(turns.size() - 1)[1], from, span, plot), ROW - 6,
            "#dbe4ee");
      }
      for (long[] t : turns) rect(svg, x(t[0], from, span, plot), y, x(t[1], from, span, plot), ROW, "#1f4e79");
      int sy = y + ROW;
      for (List<long[]> sub : l.subAgents()) {
        for (long[] t : sub) rect(svg, x(t[0], from, span, plot), sy + 1, x(t[1], from, span, plot), SUB_ROW - 2, "#e07b00");
        sy += SUB_ROW;
      }
      path(svg, l.path(), y, from, span, plot);
      y = sy + GAP;
    }
    for (int k = 0; k <= 4; k++) {
      double xPos = LEFT + plot * k / 4;
      svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>", xPos, TOP,
          xPos, y));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.2f s</text>", xPos, y + 14,
          span * k / 4 / 1e9));
    }
    return svg.append("</svg>").toString();
  }

  /**
   * The critical path along its rows: a red line through the middle of each stretch's row (the agent's row, or a
   * sub-agent's beneath it), a vertical step where it moves between rows.
   */
  private static void path(StringBuilder svg, AgentRuns.CriticalPath path, int laneTop, long from, double span,
      double plot) {
    if (path.stretches().isEmpty()) return;
    StringBuilder points = new StringBuilder();
    for (long[] s : path.stretches()) {
      double mid = s[2] == 0 ? laneTop + ROW / 2.0 : laneTop + ROW + SUB_ROW * (s[2] - 1) + SUB_ROW / 2.0;
      points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x(s[0], from, span, plot), mid,
          x(s[1], from, span, plot), mid));
    }
    svg.append("<polyline class=\"critical-path\" points=\"").append(points.toString().trim())
        .append("\" fill=\"none\" stroke=\"#c00000\" stroke-width=\"1.5\"/>");
  }

  private static double x(long nanos, long from, double span, double plot) {
    return LEFT + (nanos - from) / span * plot;
  }

  private static void rect(StringBuilder svg, double x1, int y, double x2, int h, String fill) {
    svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", x1, y,
        Math.max(0.5, x2 - x1), h, fill));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
