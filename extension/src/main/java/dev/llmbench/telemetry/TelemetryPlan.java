package dev.llmbench.telemetry;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Which GPU exporters a level scrapes, and how often.
 *
 * @param urls     their Prometheus endpoints; none for no telemetry
 * @param interval time between scrapes while the level runs
 */
record TelemetryPlan(List<URI> urls, Duration interval) {

  public static final TelemetryPlan NONE = new TelemetryPlan(List.of(), Duration.ofSeconds(1));

  public TelemetryPlan {
    urls = List.copyOf(urls);
    if (interval.isNegative() || interval.isZero()) throw new IllegalArgumentException("interval must be positive");
  }
}
