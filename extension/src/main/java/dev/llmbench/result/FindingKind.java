package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What a {@link Finding} is about. Readings describe the server (how it scales, where it saturates);
 * anomalies say a figure is not what it seems, or that something went wrong. docs/findings.md explains
 * each kind, its evidence and its thresholds.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum FindingKind {
  /** How throughput grew from the lowest to the highest concurrency, and the likely bound. */
  SCALING(false),
  /** Scaling efficiency falls below 80% at a level and stays below. */
  KNEE(false),
  /** Throughput stops rising: higher levels add nothing beyond noise. */
  PLATEAU(false),
  /** Open loop: the highest offered rate the server kept up with. */
  CAPACITY(false),
  /** Open loop: at a rate, requests queue; the server is past saturation. */
  QUEUEING(false),
  /** Throughput falls as concurrency rises, beyond the noise of both levels. */
  THROUGHPUT_DROP(true),
  /** Scaling efficiency falls below 80% at a level and recovers at a higher one: that level's reading is odd. */
  DIP(true),
  /** A latency falls as concurrency rises: the lower level was not steady. */
  LATENCY_FALLS_WITH_LOAD(true),
  /** A level's first round is an outlier against its own later rounds, or its warm-up did not do its job. */
  COLD_START(true),
  /** A level's per-token time or throughput varies too much to read one figure from it. */
  UNSTABLE(true),
  /**
   * A level read from a summary (a table, a vLLM result without per-request data) whose requests took about the
   * same time: its spread, the only noise a summary shows, is narrow enough to read its figures as signal.
   */
  STABLE(false),
  /** Ramp-up and drain moved a closed-loop level's throughput away from its steady part's. */
  RAMP_AND_DRAIN(true),
  /** The client, not the server, may have set a level's figures. */
  CLIENT_BOUND(true),
  /** Requests fail more often as load rises. */
  ERROR_GROWTH(true),
  /** Open loop: the client sent requests later than their schedule (a trace's timestamps, or drawn arrivals) made them due. */
  BEHIND_SCHEDULE(true),
  /**
   * The server preempted (vLLM) or retracted (SGLang) requests during a level, by its own counter: their KV cache was
   * freed and their work redone, so the level's throughput and latency include recomputation.
   */
  PREEMPTION(true),
  /** Speculative decoding's acceptance, by the server's own counters, falls as load rises: it pays less at high batch. */
  SPECULATION_FALLS(false);

  private final boolean anomaly;

  FindingKind(boolean anomaly) {
    this.anomaly = anomaly;
  }

  /**
   * {@return whether the finding says a figure is not what it seems or something went wrong, rather than describing the server}
   */
  public boolean isAnomaly() {
    return anomaly;
  }

  /** {@return {@code throughput drop}: the kind as text reads it} */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
  }
}
