package dev.llmbench.servermetrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.server.ServerFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The server's own figures in the registry: what any level's {@code /metrics} scrape says of speculation, the KV
 * cache, preemptions and the queue ({@link SweepLevelResult#serverFigures()}), in every report of the level. It
 * records nothing itself: the machinery scrapes the server around every level, and a level read back from its files
 * keeps what it scraped.
 */
@API(status = INTERNAL)
public final class ServerMetricsRegistration implements Feature {

  @Override
  public String key() {
    return "server_figures";
  }

  @Override
  public List<LevelReading> readings() {
    return List.of(new Figures());
  }

  /** {@code llmbench.server_figures}, the console's {@code server figures:} line and the page's rows. */
  private static final class Figures implements LevelReading {
    @Override
    public Place place() {
      return Place.DEPLOYMENT;
    }

    @Override
    public String field() {
      return "server_figures";
    }

    @Override
    public Optional<JsonNode> json(SweepLevelResult level) {
      return level.serverFigures().map(ServerFiguresText::json);
    }

    @Override
    public Optional<String> console(SweepLevelResult level) {
      return level.serverFigures().map(f -> "server figures: " + ServerFiguresText.summary(f));
    }

    @Override
    public List<Row> html(SweepLevelResult level) {
      List<Row> rows = new ArrayList<>();
      level.serverFigures().ifPresent(f -> {
        f.speculation().ifPresent(s -> rows.add(new Row("speculative decoding", ServerFiguresText.speculation(s)
            .substring("spec ".length()) + "; from " + s.source())));
        List<String> rest = ServerFiguresText.parts(new ServerFigures(f.family(), Optional.empty(), f.kvCacheUsageMean(),
            f.kvCacheUsagePeak(), f.preemptions(), f.requestsRunningMean(), f.requestsRunningPeak(),
            f.requestsWaitingMean(), f.requestsWaitingPeak()));
        if (!rest.isEmpty()) rows.add(new Row("server (" + f.family() + ")", String.join(", ", rest)));
      });
      return rows;
    }
  }
}
