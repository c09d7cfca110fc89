package dev.llmbench.telemetry;

import static org.apiguardian.api.API.Status.INTERNAL;

import static dev.llmbench.telemetry.TelemetryKeys.TELEMETRY_INTERVAL;
import static dev.llmbench.telemetry.TelemetryKeys.TELEMETRY_URLS;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.LevelRecorder;
import dev.llmbench.internal.junit.Annotations;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.LevelReading;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * GPU telemetry in the registry: the exporters of {@code llmbench.telemetry.urls} (else of
 * {@code @LlmEndpoint(telemetryUrls)}) scraped beside each level, and what the GPUs did in every report of the level.
 */
@API(status = INTERNAL)
public final class TelemetryRegistration implements Feature {

  @Override
  public String key() {
    return "telemetry";
  }

  @Override
  public List<Setting<?>> settings() {
    return TelemetryKeys.ALL;
  }

  @Override
  public List<LevelRecorder> recorders(ExtensionContext context) {
    Settings settings = Settings.of(context);
    String declared = Annotations.nearest(context, LlmEndpoint.class).map(a -> String.join(",", a.telemetryUrls()))
        .filter(s -> !s.isBlank()).orElse(null);
    TelemetryPlan plan = new TelemetryPlan(settings.get(TELEMETRY_URLS, declared).optional().orElse(List.of()),
        settings.get(TELEMETRY_INTERVAL).value());
    if (plan.urls().isEmpty()) return List.of();
    return List.of(() -> {
      TelemetryScraper scraper = TelemetryScraper.start(plan.urls(), plan.interval());
      return outputTokens -> {
        TelemetryReading reading = scraper.stop(outputTokens);
        return new LevelRecorder.Recorded(reading.gpus().map(g -> g), reading.warnings());
      };
    });
  }

  @Override
  public List<LevelReading> readings() {
    return List.of(new Gpus());
  }

  /** {@code llmbench.gpu_telemetry}, the console's {@code gpu:} line and the page's GPU rows. */
  private static final class Gpus implements LevelReading {
    @Override
    public Place place() {
      return Place.DEPLOYMENT;
    }

    @Override
    public String field() {
      return "gpu_telemetry";
    }

    @Override
    public Optional<JsonNode> json(SweepLevelResult level) {
      return level.gpuTelemetry().map(GpuText::json);
    }

    @Override
    public Optional<String> console(SweepLevelResult level) {
      return level.gpuTelemetry().map(g -> "gpu: " + GpuText.summary(g));
    }

    @Override
    public List<Row> html(SweepLevelResult level) {
      List<Row> rows = new ArrayList<>();
      level.gpuTelemetry().ifPresent(g -> {
        rows.add(new Row("GPUs", GpuText.summary(g)));
        g.gpus().forEach(gpu -> rows.add(new Row(gpu.name(), GpuText.one(gpu).substring(gpu.name().length() + 2))));
      });
      return rows;
    }
  }
}
