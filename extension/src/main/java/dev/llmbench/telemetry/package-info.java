/**
 * GPU telemetry: the Prometheus endpoints of GPU exporters beside the server (NVIDIA's DCGM exporter first),
 * scraped before, during and after each level, and read into per-GPU figures, energy and joules per output
 * token ({@link dev.llmbench.server.GpuTelemetry}). An exporter that does not answer is a warning on the level.
 */
package dev.llmbench.telemetry;
