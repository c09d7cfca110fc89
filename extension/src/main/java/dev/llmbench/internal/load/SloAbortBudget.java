package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A level's own budget that also stops sending once its SLO can no longer be met ({@code @Slo(abortOnFail =
 * true)}, as k6's {@code abortOnFail}).
 *
 * <p>"Can no longer": a level meets its SLO only if SLO attainment, good requests over all requests, is at
 * least p/100; a request that failed or missed any objective is bad. With N the most requests the level
 * may send, at most {@code allowed = floor(N x (1 - p/100))} may be bad; once more than that are, good / n is
 * below p/100 for every n up to N, whatever the requests still to come do. N is the count of a count-bounded
 * level and the request cap of an adaptive one or of a count that goes on to a precision (all exact: the decision
 * is a proof). A duration-bounded level has no such N: it is projected from the pace so far
 * ({@code issued x duration / elapsed}), and the decision waits until at least the percentile's own minimum of samples (⌈100 / (100 - p)⌉) has completed,
 * so that one slow first request cannot stop it; for such a level the stop is an estimate, and says so.
 * Requests already in flight when it stops are waited for as usual and measured.
 */
@API(status = INTERNAL)
public final class SloAbortBudget implements Budget {

  private final Budget inner;
  private final ServiceLevels slo;
  private final StopRule rule;
  private int completed;
  private int bad;
  private int issued;
  private Duration elapsed = Duration.ZERO;
  private volatile String reason;
  private volatile long plannedAtStop;

  private SloAbortBudget(Budget inner, ServiceLevels slo, StopRule rule) {
    this.inner = inner;
    this.slo = slo;
    this.rule = rule;
  }

  /** {@code inner}, aborting on the SLO when {@code slo} asks for it; else {@code inner} itself. */
  public static Budget of(Budget inner, ServiceLevels slo, StopRule rule) {
    return slo.abortsOnFail() ? new SloAbortBudget(inner, slo, rule) : inner;
  }

  @Override
  public boolean mayIssue(int issuedSoFar, Duration elapsedSoFar) {
    this.issued = issuedSoFar;
    this.elapsed = elapsedSoFar;
    if (reason != null) return false;
    return inner.mayIssue(issuedSoFar, elapsedSoFar);
  }

  @Override
  public void completed(RequestTrace trace) {
    inner.completed(trace);
    completed++;
    if (!slo.isMetBy(RequestMetrics.of(trace))) bad++;
    if (reason != null) return;
    Optional<Long> planned = planned();
    if (planned.isEmpty()) return;
    long allowed = allowed(planned.get(), slo.percentile());
    if (bad > allowed) {
      reason = String.format(Locale.ROOT, "stopped early: the SLO (%s) could no longer be met: %d of the first %d "
          + "requests to complete had missed it (failed or over an objective), and at most %d of the %s%d planned may "
          + "for SLO attainment to reach %s (@Slo(abortOnFail = true))", slo, bad, completed, allowed,
          rule instanceof StopRule.Timed ? "~" : "", planned.get(), Formats.percent(slo.percentile() / 100));
      plannedAtStop = planned.get();
    }
  }

  /** The most requests this level sends: exact for a count or a cap, projected from the pace for a duration. */
  private Optional<Long> planned() {
    return rule.match(c -> Optional.of((long) c.precision().map(StopRule.Precision::maxRequests).orElse(c.requests())), t -> {
      if (completed < Distribution.samplesNeeded(slo.percentile()) || elapsed.isZero()) return Optional.empty();
      double projected = (double) issued * t.duration().toNanos() / elapsed.toNanos();
      return Optional.of(Math.max(issued, (long) Math.ceil(projected)));
    }, a -> Optional.of((long) a.maxRequests()));
  }

  /** Bad requests a level of {@code planned} may have and still reach attainment p: floor(N x (1 - p / 100)). */
  static long allowed(long planned, double percentile) {
    // (100 - p) / 100 in that order, and a little slack, so that 10 x (1 - 0.9) is 1, not 0.9999...
    return (long) Math.floor(planned * (100 - percentile) / 100 + 1e-9);
  }

  @Override
  public Optional<Duration> timeLimit() {
    return inner.timeLimit();
  }

  @Override
  public StopReason stopReason() {
    return reason != null ? StopReason.SLO_UNREACHABLE : inner.stopReason();
  }

  /** Why the level stopped early, in words, given the {@code sent} requests it measured; empty when it did not. */
  public Optional<String> abortNote(int sent) {
    return Optional.ofNullable(reason).map(r -> r + "; " + sent + " of the " + (rule instanceof StopRule.Timed ? "~" : "")
        + plannedAtStop + " planned were sent, and each is in the level's figures");
  }
}
