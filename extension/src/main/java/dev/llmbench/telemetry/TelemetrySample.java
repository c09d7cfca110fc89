package dev.llmbench.telemetry;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.server.PrometheusText;
import org.apiguardian.api.API;

/**
 * One scrape of one exporter.
 *
 * @param nanos when it was read ({@link System#nanoTime()})
 * @param text  what it said
 */
@API(status = INTERNAL)
public record TelemetrySample(long nanos, PrometheusText text) {}
