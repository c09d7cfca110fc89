package dev.llmbench.internal.core;

import java.io.IOException;

/**
 * One condition of an endpoint's readiness, as a Testcontainers {@code WaitStrategy} is one condition of a
 * container's: {@link ReadinessWait} polls its probes in order, and the server is ready when every probe passes
 * in one poll. A probe records what it saw in the poll's log.
 */
interface ReadinessProbe {

  /**
   * @return whether the server passed; false polls again
   * @throws CannotBecomeReadyException for an answer that waiting cannot change
   * @throws IOException a server that does not answer yet, or a TLS or protocol mismatch, which the wait reads
   */
  boolean passes(ReadinessState state) throws IOException;
}
