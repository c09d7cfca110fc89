package dev.llmbench.telemetry;

import dev.llmbench.internal.server.PrometheusText;

/**
 * One scrape of one exporter.
 *
 * @param nanos when it was read ({@link System#nanoTime()})
 * @param text  what it said
 */
record TelemetrySample(long nanos, PrometheusText text) {}
