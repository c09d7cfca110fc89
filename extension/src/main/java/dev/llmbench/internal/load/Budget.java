package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.StopReason;
import dev.llmbench.internal.client.RequestTrace;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/** Decides, while a level runs, whether it may send another request, and says why it stopped. */
@API(status = INTERNAL)
public interface Budget {

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

  /** A fresh budget for one run of a level under {@code rule}. */
  static Budget of(StopRule rule, int concurrency) {
    return rule.match(c -> requests(c.requests()), t -> duration(t.duration()), a -> new AdaptiveBudget(a, concurrency));
  }

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

  private static Budget duration(Duration duration) {
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
