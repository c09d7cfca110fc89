package dev.llmbench.trace;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.SvgCharts;
import dev.llmbench.internal.workload.LengthStats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * What a level replaying a trace sent: the file, the rows (how many of the trace's, the lines they came from),
 * and each row's {@code input_length} and {@code output_length} against the server's {@code usage} of the
 * requests that succeeded (mean, p50, p99, histograms on shared bins, as a dataset level reports them), with a
 * chart of each. Levels of other workloads get nothing.
 */
final class TraceFeature implements SweepFeature {

  @Override
  public String key() {
    return "trace";
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    PromptSource prompts = level.plan().workload().prompts();
    Optional<TraceSource> source = prompts.rowSource().filter(TraceSource.class::isInstance).map(TraceSource.class::cast);
    if (source.isEmpty()) return Optional.empty();
    TraceSource t = source.get();
    List<RequestMetrics> sent = level.metrics();
    int n = sent.size();
    int[] reqIn = new int[n];
    int[] reqOut = new int[n];
    int firstLine = Integer.MAX_VALUE;
    int lastLine = 0;
    for (int i = 0; i < n; i++) { // request i sent row rowIndex(i): ascending, so the file is read once
      TraceRow row = t.rowAt(prompts.rowIndex(i));
      reqIn[i] = row.inputLength();
      reqOut[i] = row.outputLength();
      firstLine = Math.min(firstLine, row.line());
      lastLine = Math.max(lastLine, row.line());
    }
    int[] actIn = sent.stream().filter(RequestMetrics::succeeded).mapToInt(RequestMetrics::promptTokens).toArray();
    int[] actOut = sent.stream().filter(RequestMetrics::succeeded).mapToInt(RequestMetrics::outputTokens).toArray();
    int[] inEdges = LengthStats.edges(reqIn, actIn);
    int[] outEdges = LengthStats.edges(reqOut, actOut);
    LengthStats requestedIn = LengthStats.of(reqIn, inEdges);
    LengthStats actualIn = LengthStats.of(actIn, inEdges);
    LengthStats requestedOut = LengthStats.of(reqOut, outEdges);
    LengthStats actualOut = LengthStats.of(actOut, outEdges);

    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("file", t.trace().file().toString());
    json.put("block_size", t.trace().blockSize());
    if (t.timeScale() > 0) json.put("time_scale", t.timeScale());
    json.put("trace_rows", t.trace().rows());
    json.put("rows_sent", n);
    if (n > 0) {
      json.put("first_line", firstLine);
      json.put("last_line", lastLine);
    }
    lengths(json.putObject("input_tokens"), "the rows' input_length", requestedIn, actualIn);
    lengths(json.putObject("output_tokens"), "the rows' output_length", requestedOut, actualOut);

    String rows = n + " of " + t.trace().rows() + " rows" + (n > 0 ? " (lines " + firstLine + "-" + lastLine + ")" : "");
    String line = level.label() + " | trace: " + t.trace().file().getFileName() + " " + rows + "; input tokens asked "
        + requestedIn + ", got " + actualIn + "; output tokens asked " + requestedOut + ", got " + actualOut;
    String inSvg = SvgCharts.lengths(level.label() + ": input tokens", "Input tokens", requestedIn, actualIn);
    String outSvg = SvgCharts.lengths(level.label() + ": output tokens", "Output tokens", requestedOut, actualOut);
    String html = "<p>trace " + escape(t.trace().file().getFileName() + ", " + rows + (t.timeScale() > 0 ? ", x"
        + Formats.number(t.timeScale()) : "")) + "; input tokens asked " + escape(requestedIn + ", got " + actualIn)
        + "; output tokens asked " + escape(requestedOut + ", got " + actualOut) + "</p>\n" + inSvg + "\n" + outSvg + "\n";
    return Optional.of(FeatureSection.titled("trace").withJson(json).withConsole(List.of(line)).withHtml(html)
        .withAttachments(List.of(svg(level.label() + ".trace-input-lengths", inSvg),
            svg(level.label() + ".trace-output-lengths", outSvg))));
  }

  private static void lengths(ObjectNode n, String requestedAs, LengthStats requested, LengthStats actual) {
    n.put("requested_as", requestedAs);
    n.set("requested", requested.json());
    n.set("actual", actual.json());
  }

  private static FeatureSection.Attachment svg(String name, String svg) {
    return new FeatureSection.Attachment(name, "image/svg+xml", "svg", svg.getBytes(StandardCharsets.UTF_8));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
