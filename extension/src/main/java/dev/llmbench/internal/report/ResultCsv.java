package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.MeasuredLevel;
import java.util.Locale;
import org.apiguardian.api.API;

/** Per-request records of a level as CSV; every time column is in milliseconds, as its header says. */
@API(status = INTERNAL)
public final class ResultCsv {

  public static final String HEADER = "index,start_offset_ms,queue_ms,ttft_ms,ttfo_ms,tpot_ms,e2e_ms,output_tokens,"
      + "reasoning_tokens,prompt_tokens,token_source,chunks,finish_reason,error";

  private ResultCsv() {}

  public static String write(MeasuredLevel r) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    for (RequestRecord rec : RequestRecord.allOf(r, ReportOptions.DEFAULT)) {
      out.append(String.join(",", Integer.toString(rec.index()), num(rec.startOffsetMs()), num(rec.queueMs()),
          num(rec.ttftMs()), num(rec.ttfoMs()), num(rec.tpotMs()), num(rec.e2eMs()),
          Integer.toString(rec.outputTokens()), Integer.toString(rec.reasoningTokens()),
          Integer.toString(rec.promptTokens()), rec.tokenSource(), Integer.toString(rec.tokenChunks()),
          quote(rec.finishReason()), quote(rec.error()))).append('\n');
    }
    return out.toString();
  }

  private static String num(Double v) {
    return v == null ? "" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String quote(String s) {
    if (s == null) return "";
    return "\"" + s.replace("\"", "\"\"").replaceAll("[\\r\\n]+", " ") + "\"";
  }
}
