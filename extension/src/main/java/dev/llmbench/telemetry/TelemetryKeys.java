package dev.llmbench.telemetry;

import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.SettingKeys;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** GPU telemetry's own settings, declared beside it (the registry lists them: {@link TelemetryRegistration}). */
final class TelemetryKeys {

  private TelemetryKeys() {}

  static final Setting<List<URI>> TELEMETRY_URLS = new Setting<>("llmbench.telemetry.urls", "", "none",
      "Prometheus endpoints of GPU exporters scraped around every level, comma-separated, e.g. "
          + "`http://gpu-node-1:9400/metrics` (NVIDIA's DCGM exporter; `@LlmEndpoint(telemetryUrls)`)", SettingKeys::urls);
  static final Setting<Duration> TELEMETRY_INTERVAL = new Setting<>("llmbench.telemetry.interval", "1s", null,
      "time between scrapes of the telemetry endpoints while a level runs", SettingKeys::positive);

  /** In the order of the settings table. */
  static final List<Setting<?>> ALL = List.of(TELEMETRY_URLS, TELEMETRY_INTERVAL);
}
