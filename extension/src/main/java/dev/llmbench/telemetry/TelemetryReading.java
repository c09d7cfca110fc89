package dev.llmbench.telemetry;

import dev.llmbench.server.GpuTelemetry;
import java.util.List;
import java.util.Optional;

/**
 * What a level's telemetry came to: its GPU figures, if any exporter gave some, and what went wrong on the way.
 *
 * @param gpus     empty when no endpoint gave a DCGM series
 * @param warnings one per endpoint that did not answer, answered only sometimes, or gave no GPU series
 */
record TelemetryReading(Optional<GpuTelemetry> gpus, List<String> warnings) {

  public static final TelemetryReading NONE = new TelemetryReading(Optional.empty(), List.of());

  public TelemetryReading {
    warnings = List.copyOf(warnings);
  }
}
