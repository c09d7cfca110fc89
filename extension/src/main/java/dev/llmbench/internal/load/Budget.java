package dev.llmbench.internal.load;

import dev.llmbench.internal.client.RequestTrace;
import java.time.Duration;
import java.util.Optional;

/** Decides whether a level may send another request, and says why it stopped. */
public interface Budget {

  /** Why a level stopped sending. */
  enum StopReason {
    /** The configured number of requests was sent. */
    REQUEST_COUNT,
    /** The configured duration passed. */
    DURATION,
    /** Adaptive mode: the confidence interval became narrow enough. */
    CONVERGED,
    /** Adaptive mode: the request cap came first. */
    REQUEST_CAP,
    /** Adaptive mode: the time cap came first. */
    TIME_CAP
  }

  /** Whether request number {@code issued} (0-based) may be sent, {@code elapsed} after the level began. */
  boolean mayIssue(int issued, Duration elapsed);

  /** Called after each request completes, one call at a time. */
  default void completed(RequestTrace trace) {}

  /** The time after which no request is sent, if the budget has one. */
  default Optional<Duration> timeLimit() {
    return Optional.empty();
  }

  /** Why sending stopped; meaningful once {@link #mayIssue} has said no. */
  StopReason stopReason();

  static Budget requests(int count) {
    return new Budget() {
      @Override
      public boolean mayIssue(int issued, Duration elapsed) {
        return issued < count;
      }

      @Override
      public StopReason stopReason() {
        return StopReason.REQUEST_COUNT;
      }
    };
  }

  static Budget duration(Duration duration) {
    return new Budget() {
      @Override
      public boolean mayIssue(int issued, Duration elapsed) {
        return elapsed.compareTo(duration) < 0;
      }

      @Override
      public Optional<Duration> timeLimit() {
        return Optional.of(duration);
      }

      @Override
      public StopReason stopReason() {
        return StopReason.DURATION;
      }
    };
  }
}
