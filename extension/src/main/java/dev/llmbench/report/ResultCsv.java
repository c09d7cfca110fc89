package dev.llmbench.report;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.metrics.RequestMetrics;
import java.util.List;
import java.util.Locale;

/** Per-request records of a level as CSV; every time column is in milliseconds, as its header says. */
public final class ResultCsv {

  public static final String HEADER = "index,start_offset_ms,queue_ms,ttft_ms,ttfo_ms,tpot_ms,e2e_ms,output_tokens,"
      + "reasoning_tokens,prompt_tokens,token_source,chunks,finish_reason,error";

  private ResultCsv() {}

  public static String write(SweepLevelResult r) {
    List<RequestMetrics> all = r.requests();
    long levelStart = all.stream().mapToLong(m -> m.trace().startNanos()).min().orElse(0);
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    for (int i = 0; i < all.size(); i++) {
      RequestRecord rec = RequestRecord.of(i, all.get(i), levelStart);
      out.append(String.join(",", Integer.toString(rec.index()), num(rec.startOffsetMs()), num(rec.queueMs()),
          num(rec.ttftMs()), num(rec.ttfoMs()), num(rec.tpotMs()), num(rec.e2eMs()),
          Integer.toString(rec.outputTokens()), Integer.toString(rec.reasoningTokens()),
          Integer.toString(rec.promptTokens()), rec.tokenSource(), Integer.toString(rec.chunkArrivalsMs().size()),
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
