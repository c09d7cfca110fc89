package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Per-request decode speed as the client measured it (1 / TPOT) and as the server timed it
 * ({@code timings.predicted_per_second}, llama.cpp), medians over a level's successful requests.
 *
 * @param client tokens per second per request, from the client's TPOT
 * @param server tokens per second per request, from the server's own timings
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record DecodeRates(double client, double server) {

  /** How far the two may differ: the client's TPOT also carries network and chunking jitter. */
  public static final double TOLERANCE = 0.10;

  /** {@return whether the two rates differ by at most {@link #TOLERANCE} of the server's} */
  public boolean agree() {
    return Math.abs(client - server) <= TOLERANCE * server;
  }
}
