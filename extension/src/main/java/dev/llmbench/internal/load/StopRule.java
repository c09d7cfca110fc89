package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.function.Function;
import org.apiguardian.api.API;

/** When a level stops sending: after a count, after a duration with grace, or adaptively. */
@API(status = INTERNAL)
public sealed interface StopRule {

  <T> T match(Function<Count, T> count, Function<Timed, T> timed, Function<Adaptive, T> adaptive);

  /** Send exactly {@code requests}. */
  record Count(int requests) implements StopRule {
    public Count {
      if (requests < 1) throw new IllegalArgumentException("a level needs at least 1 request, was " + requests);
    }

    @Override
    public <T> T match(Function<Count, T> count, Function<Timed, T> timed, Function<Adaptive, T> adaptive) {
      return count.apply(this);
    }
  }

  /** Send for {@code duration}; requests still in flight then get {@code grace} to finish, then are cancelled. */
  record Timed(Duration duration, Duration grace) implements StopRule {
    public Timed {
      if (duration.isNegative() || duration.isZero()) throw new IllegalArgumentException("duration must be positive, was " + duration);
      if (grace.isNegative()) throw new IllegalArgumentException("grace must not be negative, was " + grace);
    }

    @Override
    public <T> T match(Function<Count, T> count, Function<Timed, T> timed, Function<Adaptive, T> adaptive) {
      return timed.apply(this);
    }
  }

  /**
   * Send until the 95% interval of output throughput is within {@code targetHalfWidth} (relative) and at
   * least {@code minRequests} were sent, or a cap is reached.
   */
  record Adaptive(double targetHalfWidth, int minRequests, int maxRequests, Duration maxDuration) implements StopRule {
    public Adaptive {
      if (!(targetHalfWidth > 0 && targetHalfWidth < 1)) {
        throw new IllegalArgumentException("targetHalfWidth must be in (0, 1), was " + targetHalfWidth);
      }
      if (minRequests < 1 || maxRequests < minRequests) {
        throw new IllegalArgumentException("need 1 <= minRequests <= maxRequests, were " + minRequests + " and " + maxRequests);
      }
      if (maxDuration.isNegative() || maxDuration.isZero()) throw new IllegalArgumentException("maxDuration must be positive");
    }

    @Override
    public <T> T match(Function<Count, T> count, Function<Timed, T> timed, Function<Adaptive, T> adaptive) {
      return adaptive.apply(this);
    }
  }
}
