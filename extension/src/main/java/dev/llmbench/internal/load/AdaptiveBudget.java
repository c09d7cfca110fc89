package dev.llmbench.internal.load;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a level sending until the 95% interval of output throughput is narrow enough and the level has
 * the samples its percentiles need, or until a request or time cap.
 */
final class AdaptiveBudget implements Budget {

  private final StopRule.Adaptive rule;
  private final int checkEvery;
  private volatile boolean converged;
  private volatile StopReason reason = StopReason.REQUEST_CAP;
  private final List<RequestMetrics> done = new ArrayList<>(); // completed() calls never overlap

  AdaptiveBudget(StopRule.Adaptive rule, int concurrency) {
    this.rule = rule;
    this.checkEvery = Math.max(4, concurrency);
  }

  @Override
  public boolean mayIssue(int issued, Duration elapsed) {
    if (converged) {
      reason = StopReason.CONVERGED;
      return false;
    }
    if (issued >= rule.maxRequests()) {
      reason = StopReason.REQUEST_CAP;
      return false;
    }
    if (elapsed.compareTo(rule.maxDuration()) >= 0) {
      reason = StopReason.TIME_CAP;
      return false;
    }
    return true;
  }

  @Override
  public void completed(RequestTrace trace) {
    done.add(RequestMetrics.of(trace));
    if (done.size() < rule.minRequests() || done.size() % checkEvery != 0) return;
    List<RequestMetrics> ok = done.stream().filter(RequestMetrics::succeeded).toList();
    Duration window = LevelStatistics.window(done);
    if (ok.size() < rule.minRequests() || window.isZero()) return;
    if (LevelStatistics.outputThroughputCi(ok, window).relativeHalfWidth() <= rule.targetHalfWidth()) converged = true;
  }

  @Override
  public Optional<Duration> timeLimit() {
    return Optional.of(rule.maxDuration());
  }

  @Override
  public StopReason stopReason() {
    return reason;
  }
}
