package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.apiguardian.api.API;

/** When a level stops sending: after a count, after a duration with grace, or adaptively. */
@API(status = INTERNAL)
public sealed interface StopRule {

  <T> T match(Function<Count, T> count, Function<Timed, T> timed, Function<Adaptive, T> adaptive);

  /** The rule as it runs against an endpoint: a count's precision for real servers only is dropped on the embedded engine. */
  default StopRule on(boolean embedded) {
    return this instanceof Count c ? c.on(embedded) : this;
  }

  /** The relative half-width of output throughput's interval this rule aims at: its own, else the default's. */
  default double targetHalfWidth() {
    return match(c -> c.precision().map(Precision::targetHalfWidth).orElse(Precision.DEFAULT_TARGET), t -> Precision.DEFAULT_TARGET,
        Adaptive::targetHalfWidth);
  }

  /**
   * Send {@code requests}; with a {@code precision}, then go on until the level's output throughput is known to it
   * (a level of automatic size, docs/metrics.md).
   */
  record Count(int requests, Optional<Precision> precision) implements StopRule {
    public Count {
      if (requests < 1) throw new IllegalArgumentException("a level needs at least 1 request, was " + requests);
      if (precision.isPresent() && precision.get().maxRequests() < requests) {
        throw new IllegalArgumentException("the request cap " + precision.get().maxRequests() + " is below the count " + requests);
      }
    }

    /** Exactly {@code requests}. */
    public Count(int requests) {
      this(requests, Optional.empty());
    }

    /** This count as it runs against an endpoint: a precision meant for real servers only is dropped on the embedded engine. */
    public Count on(boolean embedded) {
      return embedded && precision.filter(Precision::realServersOnly).isPresent() ? new Count(requests) : this;
    }

    @Override
    public <T> T match(Function<Count, T> count, Function<Timed, T> timed, Function<Adaptive, T> adaptive) {
      return count.apply(this);
    }
  }

  /**
   * How far a counted level goes on after its count: until the 95% interval of its output throughput is within
   * {@code targetHalfWidth} (relative), or {@code maxRequests} were sent, or {@code maxDuration} passed since it began.
   *
   * @param realServersOnly the default's precision, which the embedded engine (a simulator) does not need; an explicit
   *                        setting applies to every endpoint
   */
  record Precision(double targetHalfWidth, int maxRequests, Duration maxDuration, boolean realServersOnly) {
    /** The precision a level of automatic size runs to on a real server: output throughput within ±5%. */
    public static final double DEFAULT_TARGET = 0.05;
    /** How many requests a level of automatic size may send in all. */
    public static final int DEFAULT_MAX_REQUESTS = 1000;
    /** How long a level of automatic size may go on sending, from its start. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofMinutes(1);

    public Precision {
      if (!(targetHalfWidth > 0 && targetHalfWidth < 1)) {
        throw new IllegalArgumentException("targetHalfWidth must be in (0, 1), was " + targetHalfWidth);
      }
      if (maxDuration.isNegative() || maxDuration.isZero()) throw new IllegalArgumentException("maxDuration must be positive");
    }

    /** This precision with a request cap of at least {@code count}: the count itself is never cut. */
    public Precision covering(int count) {
      return count <= maxRequests ? this : new Precision(targetHalfWidth, count, maxDuration, realServersOnly);
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
