package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.result.StopReason;
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
    return rule.match(c -> c.precision().<Budget>map(p -> new PreciseCountBudget(c.requests(), p, concurrency))
        .orElseGet(() -> requests(c.requests())), t -> duration(t.duration()), a -> new AdaptiveBudget(a, concurrency));
  }

  /**
   * {@code inner}, but one that stops sending once the first {@code concurrency} answers (and every one since)
   * were 401 or 403: a refused key does not clear by sending more, and a duration-bounded level would
   * otherwise send refused requests as fast as the server answers them until its time is up.
   */
  static Budget stoppingWhenRefused(Budget inner, int concurrency) {
    return new Budget() {
      private int refused;
      private boolean answered;

      @Override
      public boolean mayIssue(int issued, Duration elapsed) {
        return !refusedSoFar() && inner.mayIssue(issued, elapsed);
      }

      @Override
      public void completed(RequestTrace trace) {
        inner.completed(trace);
        int status = trace.succeeded() ? 0 : trace.failure().status();
        if (status == 401 || status == 403) refused++;
        else answered = true;
      }

      private boolean refusedSoFar() {
        return !answered && refused >= Math.max(1, concurrency);
      }

      @Override
      public Optional<Duration> timeLimit() {
        return inner.timeLimit();
      }

      @Override
      public StopReason stopReason() {
        return refusedSoFar() ? StopReason.REFUSED : inner.stopReason();
      }
    };
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
