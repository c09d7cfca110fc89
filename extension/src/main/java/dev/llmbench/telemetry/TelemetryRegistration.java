package dev.llmbench.telemetry;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.LevelReading;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** GPU telemetry in the registry: what a level's GPUs did, in every report of the level. */
@API(status = INTERNAL)
public final class TelemetryRegistration implements Feature {

  @Override
  public String key() {
    return "telemetry";
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
