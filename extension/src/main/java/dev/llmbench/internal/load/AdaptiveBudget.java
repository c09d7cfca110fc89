package dev.llmbench.internal.load;

import dev.llmbench.ConfidenceInterval;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a level sending until the 95% interval of output throughput is narrow enough and the level has
 * the samples its percentiles need, or until a request or time cap.
 */
public final class AdaptiveBudget implements Budget {

  private final LevelPlan.AdaptivePlan plan;
  private final int checkEvery;
  private volatile boolean converged;
  private volatile StopReason reason = StopReason.REQUEST_CAP;
  private final List<RequestTrace> done = new ArrayList<>(); // completed() calls never overlap

  public AdaptiveBudget(LevelPlan.AdaptivePlan plan, int concurrency) {
    this.plan = plan;
    this.checkEvery = Math.max(4, concurrency);
  }

  @Override
  public boolean mayIssue(int issued, Duration elapsed) {
    if (converged) {
      reason = StopReason.CONVERGED;
      return false;
    }
    if (issued >= plan.maxRequests()) {
      reason = StopReason.REQUEST_CAP;
      return false;
    }
    if (elapsed.compareTo(plan.maxDuration()) >= 0) {
      reason = StopReason.TIME_CAP;
      return false;
    }
    return true;
  }

  @Override
  public void completed(RequestTrace trace) {
    done.add(trace);
    if (done.size() < plan.minRequests() || done.size() % checkEvery != 0) return;
    List<RequestMetrics> ok = done.stream().filter(RequestTrace::succeeded).map(RequestMetrics::of).toList();
    if (ok.size() < plan.minRequests()) return;
    long first = done.stream().mapToLong(RequestTrace::startNanos).min().orElse(0);
    long lastEnd = done.stream().mapToLong(RequestTrace::endNanos).max().orElse(0);
    double window = (lastEnd - first) / 1e9;
    if (window <= 0) return;
    double inFlight = ok.stream().mapToDouble(r -> r.e2eLatency().toNanos() / 1e9).sum() / window;
    ConfidenceInterval ci = Bootstrap.ratio(ok, r -> r.outputTokens(), r -> r.e2eLatency().toNanos() / 1e9, inFlight);
    if (ci.relativeHalfWidth() <= plan.targetHalfWidth()) converged = true;
  }

  @Override
  public Optional<Duration> timeLimit() {
    return Optional.of(plan.maxDuration());
  }

  @Override
  public StopReason stopReason() {
    return reason;
  }
}
