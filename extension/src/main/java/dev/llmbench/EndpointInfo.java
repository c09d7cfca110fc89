package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.result.RoundTrip;
import dev.llmbench.server.ServerStartup;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The endpoint a test ran against, safe to print: the URL never carries credentials.
 *
 * @param url           base URL without user info
 * @param model         model id sent in requests
 * @param api           chat or completions
 * @param embedded      whether it is the embedded engine (and which profile), or empty for a real server
 * @param serverVersion what {@code /version} or {@code /props} said, when they said anything
 * @param timeToReady   how long this client waited until the server was ready: the client's wait, not the
 *                      server's own load time (a server already up is ready at once)
 * @param readinessLog  what the wait saw, one line per change of status: {@code +1.2 s GET /health answered 503 ...}
 * @param startup       what the server's log said about its startup, when LLMBench launched it or followed its log
 * @param roundTrip     the network baseline timed once the endpoint was ready, unless turned off
 *                      ({@code llmbench.network.samples=0}) or the server did not answer it
 * @param deployment    the name of the {@link Deployment} this endpoint was measured as, in a suite that
 *                      compares several
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EndpointInfo(
    String url, String model, ApiStyle api, Optional<String> embedded, Optional<String> serverVersion,
    Duration timeToReady, List<String> readinessLog, ServerStartup startup, Optional<RoundTrip> roundTrip,
    Optional<String> deployment) {

  /**
   * Copies {@code readinessLog}, so the value cannot change.
   *
   * @param url           base URL without user info
   * @param model         model id sent in requests
   * @param api           chat or completions
   * @param embedded      whether it is the embedded engine (and which profile), or empty for a real server
   * @param serverVersion what {@code /version} or {@code /props} said, when they said anything
   * @param timeToReady   how long this client waited until the server was ready: the client's wait, not the
   *     server's own load time (a server already up is ready at once)
   * @param readinessLog  what the wait saw, one line per change of status: {@code +1.2 s GET /health answered 503 ...}
   * @param startup       what the server's log said about its startup, when LLMBench launched it or followed its log
   * @param roundTrip     the network baseline timed once the endpoint was ready, unless turned off
   *     ({@code llmbench.network.samples=0}) or the server did not answer it
   * @param deployment    the name of the {@link Deployment} this endpoint was measured as, in a suite that
   *     compares several
   */
  public EndpointInfo {
    readinessLog = List.copyOf(readinessLog);
  }

  /**
   * An endpoint without a startup log or a network baseline, outside any comparison of deployments.
   *
   * @param url the server root
   * @param model the model id requests send
   * @param api the API style requests use
   * @param embedded the embedded engine's profile, when the extension started one
   * @param serverVersion what the server says its version is, when it says
   * @param timeToReady how long this client waited for the server to be ready
   * @param readinessLog what the readiness wait saw, one line per change
   */
  public EndpointInfo(String url, String model, ApiStyle api, Optional<String> embedded, Optional<String> serverVersion,
      Duration timeToReady, List<String> readinessLog) {
    this(url, model, api, embedded, serverVersion, timeToReady, readinessLog, ServerStartup.NONE, Optional.empty(),
        Optional.empty());
  }

  /**
   * {@return the same endpoint, measured as the deployment {@code name}}
   *
   * @param name the deployment's name
   */
  public EndpointInfo asDeployment(String name) {
    return new EndpointInfo(url, model, api, embedded, serverVersion, timeToReady, readinessLog, startup, roundTrip,
        Optional.of(name));
  }

  /**
   * {@return what reports call the endpoint: its URL, or {@code embedded <profile>} for the embedded engine, whose
   * port changes every run and would break history ids}
   */
  public String reportName() {
    return embedded.map(p -> "embedded " + p).orElse(url);
  }

  /** {@code gqa-dense-70b at embedded gqa-dense}, after the deployment's name when there is one. */
  @Override
  public String toString() {
    return deployment.map(d -> d + ": ").orElse("") + model + " at " + reportName();
  }
}
