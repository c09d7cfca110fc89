package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * What the per-level files hold beyond per-request summaries.
 *
 * @param chunkTimings every token chunk's arrival time per request ({@code chunk_arrivals_ms}, and vLLM's
 *                     {@code itls}): files then grow with tokens x requests, so only when asked
 *                     ({@code llmbench.report.chunk-timings})
 */
@API(status = INTERNAL)
public record ReportOptions(boolean chunkTimings) {

  /** Summaries only: a file's size grows with requests, not with their tokens. */
  public static final ReportOptions DEFAULT = new ReportOptions(false);
}
