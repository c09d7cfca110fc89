package dev.llmbench.internal.junit;

import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointSpec;
import dev.llmbench.server.EndpointNotReadyException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The candidates a run launches (deployments started by the suite, one per combination of a matrix): one runs at a
 * time, as on a machine whose GPUs hold one model. Before a candidate starts, the one running is stopped and its port
 * waited for until nothing holds it; a candidate whose port stays held is not started (and not tried again), so the
 * next one can go on.
 */
final class Candidates {

  /** How long a stopped candidate's port may stay held (a socket in its last state, a slow child) before it is a fault. */
  static final Duration PORT_RELEASE = Duration.ofSeconds(10);
  private static final Duration POLL = Duration.ofMillis(100);

  private EndpointSpec running;
  private String runningName;
  private Endpoint runningEndpoint;
  private final Map<EndpointSpec, EndpointNotReadyException> notStarted = new HashMap<>();

  /**
   * The endpoint of candidate {@code name}, once every other candidate has stopped and its port is free.
   *
   * @param endpoints gives the candidate's endpoint (created on first use); {@code stop} removes and closes one
   * @throws EndpointNotReadyException when its port is held by something else, before anything was launched
   */
  synchronized Endpoint switchTo(EndpointSpec spec, String name, Function<EndpointSpec, Endpoint> endpoints,
      Function<EndpointSpec, Optional<Endpoint>> stop) {
    if (spec.equals(running)) return runningEndpoint;
    EndpointNotReadyException refused = notStarted.get(spec);
    if (refused != null) throw new EndpointNotReadyException("not tried again: " + refused.getMessage(), refused);
    String previous = null;
    Optional<URI> previousUrl = Optional.empty();
    if (running != null) {
      previous = runningName;
      previousUrl = Optional.ofNullable(running.baseUrl()).or(() -> Optional.ofNullable(runningEndpoint.client())
          .map(c -> c.baseUrl()));
      stop.apply(running); // closed: the server stopped, its process tree (or container) gone
      running = null;
      runningEndpoint = null;
    }
    if (spec.baseUrl() != null) {
      Duration limit = previous != null && previousUrl.map(u -> samePort(u, spec.baseUrl())).orElse(false)
          ? PORT_RELEASE : Duration.ZERO;
      if (!awaitFree(spec.baseUrl(), limit)) {
        String port = Integer.toString(port(spec.baseUrl()));
        EndpointNotReadyException e = new EndpointNotReadyException(limit.isZero()
            ? "candidate '" + name + "' was not started: port " + port + " is already held by another process (something "
                + "accepts connections at " + spec.baseUrl() + " before the launch); stop it, or launch the candidates on a "
                + "free port"
            : "candidate '" + name + "' was not started: port " + port + " is still held " + PORT_RELEASE.toSeconds()
                + " s after candidate '" + previous + "' stopped; a process of '" + previous + "' may have left its "
                + "process tree (a daemon, a container not removed): stop it, or give each candidate its own port", null);
        notStarted.put(spec, e);
        throw e;
      }
    }
    running = spec;
    runningName = name;
    runningEndpoint = endpoints.apply(spec);
    return runningEndpoint;
  }

  private static boolean samePort(URI a, URI b) {
    return port(a) == port(b);
  }

  static int port(URI url) {
    return url.getPort() >= 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
  }

  /** Whether nothing accepts connections at {@code url}'s port, now or within {@code limit}. */
  static boolean awaitFree(URI url, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      if (!accepts(url)) return true;
      if (System.nanoTime() >= deadline) return false;
      try {
        TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  private static boolean accepts(URI url) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(url.getHost(), port(url)), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
