package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Slo;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.format.Formats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Service-level objectives, immutable: each {@code with*} returns a new one. A request is "good" when it
 * succeeded and meets every threshold set here (vLLM's goodput); a level meets the objectives when each
 * threshold holds at {@link #percentile()} and at least that share of requests was good.
 *
 * <pre>{@code ServiceLevels.none().withTtft(Duration.ofSeconds(2)).withTpot(Duration.ofMillis(50)).atPercentile(99)}</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ServiceLevels {

  private static final ServiceLevels NONE = new ServiceLevels(null, null, null, 99, false);

  private final Duration ttft;
  private final Duration tpot;
  private final Duration e2eLatency;
  private final double percentile;
  private final boolean abortOnFail;

  private ServiceLevels(Duration ttft, Duration tpot, Duration e2eLatency, double percentile, boolean abortOnFail) {
    if (percentile <= 0 || percentile > 100) {
      throw new IllegalArgumentException("the SLO percentile must be in (0, 100], was " + percentile);
    }
    this.ttft = ttft;
    this.tpot = tpot;
    this.e2eLatency = e2eLatency;
    this.percentile = percentile;
    this.abortOnFail = abortOnFail;
  }

  /** {@return no objective at all} */
  public static ServiceLevels none() {
    return NONE;
  }

  /**
   * {@return these objectives with a limit on TTFT}
   *
   * @param max the longest TTFT allowed, positive
   */
  public ServiceLevels withTtft(Duration max) {
    return new ServiceLevels(positive(max, "TTFT"), tpot, e2eLatency, percentile, abortOnFail);
  }

  /**
   * {@return these objectives with a limit on TPOT}
   *
   * @param max the longest TPOT allowed, positive
   */
  public ServiceLevels withTpot(Duration max) {
    return new ServiceLevels(ttft, positive(max, "TPOT"), e2eLatency, percentile, abortOnFail);
  }

  /**
   * {@return these objectives with a limit on E2E latency}
   *
   * @param max the longest E2E latency allowed, positive
   */
  public ServiceLevels withE2eLatency(Duration max) {
    return new ServiceLevels(ttft, tpot, positive(max, "E2E latency"), percentile, abortOnFail);
  }

  /**
   * {@return these objectives, checked at another percentile}
   *
   * @param percentile the percentile each limit applies at, in (0, 100]
   */
  public ServiceLevels atPercentile(double percentile) {
    return new ServiceLevels(ttft, tpot, e2eLatency, percentile, abortOnFail);
  }

  /**
   * {@return the same objectives, with a level stopping as soon as they can no longer be met, or always running
   * to its end}
   *
   * @param abort {@code true} to stop a level once its objectives can no longer be met; {@code false}, the
   *              default, to run it to its end; see {@link Slo#abortOnFail()}
   */
  public ServiceLevels abortingOnFail(boolean abort) {
    return new ServiceLevels(ttft, tpot, e2eLatency, percentile, abort);
  }

  /** {@return whether a level stops sending once these objectives can no longer be met} */
  public boolean abortsOnFail() {
    return abortOnFail && !isEmpty();
  }

  private static Duration positive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + " SLO must be positive, was " + d);
    return d;
  }

  /** {@return the TTFT limit, if any} */
  public Optional<Duration> ttft() {
    return Optional.ofNullable(ttft);
  }

  /** {@return the TPOT limit, if any} */
  public Optional<Duration> tpot() {
    return Optional.ofNullable(tpot);
  }

  /** {@return the E2E latency limit, if any} */
  public Optional<Duration> e2eLatency() {
    return Optional.ofNullable(e2eLatency);
  }

  /** {@return the percentile each limit applies at} */
  public double percentile() {
    return percentile;
  }

  /** {@return whether there is no limit} */
  public boolean isEmpty() {
    return ttft == null && tpot == null && e2eLatency == null;
  }

  /**
   * {@return whether one request succeeded and met every threshold}
   *
   * @param r one request's result
   */
  public boolean isMetBy(RequestResult r) {
    if (!r.succeeded()) return false;
    if (ttft != null && r.ttft().map(t -> t.compareTo(ttft) > 0).orElse(true)) return false;
    if (tpot != null && r.tpot().map(t -> t.compareTo(tpot) > 0).orElse(false)) return false;
    return e2eLatency == null || r.e2eLatency().compareTo(e2eLatency) <= 0;
  }

  @Override
  public String toString() {
    if (isEmpty()) return "no SLO";
    List<String> parts = new ArrayList<>();
    if (ttft != null) parts.add("TTFT ≤ " + Formats.duration(ttft));
    if (tpot != null) parts.add("TPOT ≤ " + Formats.duration(tpot));
    if (e2eLatency != null) parts.add("E2E ≤ " + Formats.duration(e2eLatency));
    return String.join(", ", parts) + " at " + Formats.percentile(percentile);
  }
}
