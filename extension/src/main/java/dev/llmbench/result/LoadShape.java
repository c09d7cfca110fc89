package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.OptionalInt;
import java.util.function.Function;
import org.apiguardian.api.API;

/** How a level offers load: a fixed number of requests in flight, or arrivals at a rate. */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface LoadShape {

  /**
   * One function per shape: Java 17 has no pattern switch, and this one cannot miss a case.
   *
   * @param <T> what the functions return
   * @param closed applied to a closed loop
   * @param open applied to an open loop
   * @return what the function of this shape returned
   */
  <T> T match(Function<ClosedLoop, T> closed, Function<OpenLoop, T> open);

  /**
   * Requests in flight this shape allows: C for a closed loop; an open loop's cap, or 0 when uncapped.
   *
   * @return the concurrency, the cap, or 0
   */
  default int concurrency() {
    return match(ClosedLoop::concurrency, o -> o.maxConcurrency().orElse(0));
  }

  /**
   * Closed loop, as a sweep script with C workers sends: exactly {@code concurrency} requests in flight,
   * each worker sending its next request as soon as its last one ends.
   */
  record ClosedLoop(int concurrency) implements LoadShape {
    /**
     * Rejects a concurrency below 1.
     *
     * @param concurrency requests in flight, at least 1
     */
    public ClosedLoop {
      if (concurrency < 1) throw new IllegalArgumentException("concurrency must be at least 1, was " + concurrency);
    }

    @Override
    public <T> T match(Function<ClosedLoop, T> closed, Function<OpenLoop, T> open) {
      return closed.apply(this);
    }

    @Override
    public String toString() {
      return "C=" + concurrency;
    }
  }

  /**
   * Open loop, as {@code vllm bench serve --request-rate} sends: arrivals at {@code rate} whatever the
   * server's speed, gaps drawn from Gamma(shape = burstiness, scale = 1 / (rate x burstiness)); with a
   * cap, a due request waits for a free slot and the wait is its queue time.
   */
  record OpenLoop(Rate rate, double burstiness, OptionalInt maxConcurrency) implements LoadShape {
    /**
     * Rejects a rate that is not a positive, finite number of requests per second, and a burstiness that is
     * not positive and finite.
     *
     * @param rate mean arrival rate, in requests per second
     * @param burstiness gamma shape of the arrival gaps; 1 for Poisson arrivals
     * @param maxConcurrency cap on requests in flight; empty for none
     */
    public OpenLoop {
      if (rate.unit() != Rate.Unit.REQUESTS || !(rate.perSecond() > 0) || Double.isInfinite(rate.perSecond())) {
        throw new IllegalArgumentException("an open loop needs a positive, finite rate in requests per second, was " + rate);
      }
      if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
        throw new IllegalArgumentException("burstiness must be positive (1 is Poisson), was " + burstiness);
      }
      if (maxConcurrency.isPresent() && maxConcurrency.getAsInt() < 1) {
        throw new IllegalArgumentException("a concurrency cap must be at least 1, was " + maxConcurrency.getAsInt());
      }
    }

    @Override
    public <T> T match(Function<ClosedLoop, T> closed, Function<OpenLoop, T> open) {
      return open.apply(this);
    }

    @Override
    public String toString() {
      return rate + (maxConcurrency.isPresent() ? ", at most " + maxConcurrency.getAsInt() + " in flight" : "");
    }
  }
}
