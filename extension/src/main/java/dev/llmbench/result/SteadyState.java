package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The steady part of a closed-loop level: from the moment all C requests were first in flight together to
 * the moment their number last fell below C. Before it the level ramps up, after it the level drains; a
 * level whose last round is partial drains for that whole round. Throughput over the steady part is the
 * server's rate at C; over the whole window (vLLM's {@code duration}) it also carries ramp and drain.
 *
 * @param inFlight         C, the requests in flight during the steady part
 * @param ramp             first send to the moment C were first in flight
 * @param steady           the steady part
 * @param drain            the moment fewer than C were last left in flight, to the last request's end
 * @param outputThroughput output tokens that arrived during the steady part, per second of it
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SteadyState(int inFlight, Duration ramp, Duration steady, Duration drain, Rate outputThroughput) {

  /** {@return the whole window: ramp, steady part and drain} */
  public Duration window() {
    return ramp.plus(steady).plus(drain);
  }

  /** {@return the share of the window spent ramping up or draining, 0..1} */
  public double rampAndDrainShare() {
    long window = window().toNanos();
    return window == 0 ? 0 : (double) (ramp.toNanos() + drain.toNanos()) / window;
  }
}
