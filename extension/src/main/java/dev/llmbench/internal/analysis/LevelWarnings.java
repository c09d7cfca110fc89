package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.DecodeRates;
import dev.llmbench.Distribution;
import dev.llmbench.TokenCrossCheck;
import dev.llmbench.TokenSource;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.LevelStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/** What a reader should know about one level before trusting its figures: estimates, thin samples, mismatches. */
@API(status = INTERNAL)
public final class LevelWarnings {

  private LevelWarnings() {}

  public static List<String> of(LevelStatistics stats, List<Double> percentiles, Optional<TokenCrossCheck> crossCheck,
      List<String> notes) {
    List<String> w = new ArrayList<>(notes);
    if (stats.chunkTokenMismatches() > 0) {
      w.add(stats.chunkTokenMismatches() + " of " + stats.succeeded() + " requests: the server's usage and the number of "
          + "streamed chunks differ by more than 10% (several tokens per chunk, e.g. speculative decoding or a reasoning "
          + "parser); token counts use the server's usage");
    }
    if (stats.tokenSource() == TokenSource.CHUNK_COUNT_ESTIMATE || stats.tokenSource() == TokenSource.MIXED) {
      w.add("the server sent no usage for some requests: their output tokens are estimated from chunk counts "
          + "(it may need stream_options.include_usage)");
    }
    Distribution e2e = stats.e2eLatency();
    for (double p : percentiles) {
      if (!e2e.isEmpty() && !e2e.supports(p)) {
        w.add(Formats.percentile(p) + " rests on " + e2e.count() + " requests and is only the maximum; it needs at least "
            + Distribution.samplesNeeded(p));
      }
    }
    crossCheck.filter(c -> !c.matches()).ifPresent(c -> w.add("server counters disagree with the client: " + c));
    stats.decodeRates().filter(d -> !d.agree()).ifPresent(d -> w.add(String.format(Locale.ROOT,
        "decode rate: the client measured %.1f tok/s per request (1 / TPOT, median), the server's timings say %.1f "
            + "(predicted_per_second, median): they differ by more than %s", d.client(), d.server(),
        Formats.percent(DecodeRates.TOLERANCE))));
    return List.copyOf(w);
  }
}
