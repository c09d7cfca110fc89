package dev.llmbench.internal.load;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A level's count, then as many more requests as its output throughput needs to be known to a precision: at the
 * count's end the interval over the requests done so far decides, and after that every {@code max(4, C)}
 * completions, until it is narrow enough or a cap is hit. A level already that precise stops at its count, as a
 * plain count would (same requests, same stop reason), and so does one where fewer than half of the requests done
 * succeeded; the caps never cut the count itself.
 */
final class PreciseCountBudget implements Budget {

  private final int count;
  private final StopRule.Precision precision;
  private final int checkEvery;
  private final List<RequestMetrics> done = new ArrayList<>(); // completed() and mayIssue() run on the level's one loop
  private boolean precise;
  private boolean decidedAtCount;
  private StopReason reason = StopReason.REQUEST_COUNT;

  PreciseCountBudget(int count, StopRule.Precision precision, int concurrency) {
    this.count = count;
    this.precision = precision;
    this.checkEvery = Math.max(4, concurrency);
  }

  @Override
  public boolean mayIssue(int issued, Duration elapsed) {
    if (issued < count) return true;
    if (!decidedAtCount) {
      decidedAtCount = true;
      // Fewer than half answered: the failures are the level's verdict, and more requests would only add to them.
      if (narrowEnough() || 2 * succeeded() < done.size()) return stop(StopReason.REQUEST_COUNT);
    }
    if (precise) return stop(StopReason.CONVERGED);
    if (issued >= precision.maxRequests()) return stop(StopReason.REQUEST_CAP);
    if (elapsed.compareTo(precision.maxDuration()) >= 0) return stop(StopReason.TIME_CAP);
    return true;
  }

  private boolean stop(StopReason why) {
    reason = why;
    return false;
  }

  @Override
  public void completed(RequestTrace trace) {
    done.add(RequestMetrics.of(trace));
    if (decidedAtCount && !precise && done.size() % checkEvery == 0) precise = narrowEnough();
  }

  private long succeeded() {
    return done.stream().filter(RequestMetrics::succeeded).count();
  }

  /** Whether the interval of output throughput over the requests done so far is within the target. */
  private boolean narrowEnough() {
    List<RequestMetrics> ok = done.stream().filter(RequestMetrics::succeeded).toList();
    Duration window = LevelStatistics.window(done);
    if (ok.size() < 2 || window.isZero()) return false;
    return LevelStatistics.outputThroughputCi(ok, window).relativeHalfWidth() <= precision.targetHalfWidth();
  }

  @Override
  public StopReason stopReason() {
    return reason;
  }
}
