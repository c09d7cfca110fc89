package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerLaunchException;
import java.net.URI;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A server the run starts itself for an endpoint (a process, a container), as a feature resolved it from a test's
 * settings and annotations ({@code internal.spi.Feature#server}). The endpoint starts it when first asked to be ready,
 * then waits for it, watches it and stops it as any {@link RunningServer}, not knowing what it is.
 *
 * <p>A value, equal for equal settings (a record): the endpoint's spec holds it, and two tests with equal specs share
 * one endpoint, so one server.
 */
@API(status = INTERNAL)
public interface ServerStart {

  /**
   * Starts the server, its output going to a log file, and tells {@code listener} what it started; returns as soon as
   * it runs: readiness is the endpoint's wait.
   *
   * @param baseUrl   {@code llmbench.base-url}, or null when unset: where the server listens unless the start picks
   *                  a free port itself
   * @param reportDir where its log goes unless the start names a file
   * @throws ServerLaunchException when it cannot be started, saying why and the fix
   */
  Started start(URI baseUrl, Path reportDir, BenchListener listener);

  /**
   * A server started.
   *
   * @param server what the endpoint watches and stops
   * @param url    where it listens
   */
  record Started(RunningServer server, URI url) {}
}
