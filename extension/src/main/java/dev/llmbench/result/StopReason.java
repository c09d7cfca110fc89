package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Why a level stopped sending requests. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum StopReason {
  /** The configured number of requests was sent. */
  REQUEST_COUNT,
  /** The configured duration passed. */
  DURATION,
  /** Adaptive mode: the confidence interval became narrow enough. */
  CONVERGED,
  /** Adaptive mode: the request cap came first. */
  REQUEST_CAP,
  /** Adaptive mode: the time cap came first. */
  TIME_CAP,
  /**
   * The SLO could no longer be met ({@code @Slo(abortOnFail = true)}): more requests had missed it than its
   * percentile allows of the level's planned total, so sending stopped; the level holds what it measured.
   */
  SLO_UNREACHABLE,
  /** The JVM was shutting down (SIGTERM, Ctrl-C): the level holds what was measured until then. */
  INTERRUPTED,
  /**
   * The server refused the key (401 or 403) for the level's first C requests and every one after, until
   * sending stopped: waiting or sending more does not change it.
   */
  REFUSED
}
