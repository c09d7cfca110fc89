package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.internal.junit.LlmEndpointExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The OpenAI-compatible server a test class benchmarks. Without a base URL the extension starts the
 * embedded engine on 127.0.0.1, so the class runs on a machine with nothing installed. On an enclosing
 * class it also covers its {@code @Nested} classes.
 *
 * <p>Every attribute is a setting with a key (named on each attribute) and can be set without touching
 * code, by JUnit configuration parameter or system property ({@code -Dllmbench.base-url=...}) or by
 * environment variable ({@code LLMBENCH_BASE_URL}), which win over the attribute in that order. An empty
 * attribute means the setting's default; the settings page (docs/settings.md) lists every key and default.
 * Durations are written {@code 500ms}, {@code 30s}, {@code 20m} or ISO-8601 ({@code PT20M}).
 *
 * <p>Before the first test of an endpoint, the extension waits until the server is really ready:
 * {@code /health} (or {@code /v1/models}) answers 200 and a 1-token completion succeeds (for a class whose sweeps
 * send {@code @Embeddings}, a 1-input embeddings request instead; both when it does both). Each endpoint is waited
 * for once per run.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LlmEndpointExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface LlmEndpoint {

  /**
   * {@return {@code llmbench.base-url}: server root such as {@code http://127.0.0.1:8000}; empty for the embedded engine}
   */
  String baseUrl() default "";

  /** {@return {@code llmbench.model}: model id; empty for the first id that {@code /v1/models} lists} */
  String model() default "";

  /** {@return {@code llmbench.api}: {@code chat} or {@code completions}} */
  String api() default "";

  /** {@return {@code llmbench.api-key-env}: the environment variable holding the bearer token; never printed} */
  String apiKeyEnv() default "";

  /** {@return {@code llmbench.ready.timeout}: how long to wait for the server to be ready} */
  String readyTimeout() default "";

  /** {@return {@code llmbench.ready.poll-interval}: time between readiness probes} */
  String readyPollInterval() default "";

  /** {@return {@code llmbench.ready.progress-interval}: time between progress lines while waiting} */
  String readyProgressInterval() default "";

  /** {@return {@code llmbench.request-timeout}: the longest one whole request may take} */
  String requestTimeout() default "";

  /** {@return {@code llmbench.idle-timeout}: the longest gap between two bytes of a response} */
  String idleTimeout() default "";

  /** {@return {@code llmbench.embedded.profile}: the embedded engine's performance profile} */
  String embeddedProfile() default "";

  /** {@return {@code llmbench.embedded.startup-delay}: how long the embedded engine answers 503, from when it listens, before it is ready} */
  String embeddedStartupDelay() default "";

  /**
   * {@return {@code llmbench.embedded.faults}: the embedded engine fails on purpose, e.g. {@code http500:5%,reset:2%}, to
   * test a suite's own assertions and error handling (docs/failures.md lists the kinds)}
   */
  String embeddedFaults() default "";

  /**
   * {@return Prometheus endpoints of GPU exporters beside the server, scraped around every level for its GPU
   * figures, e.g. {@code "http://gpu-node-1:9400/metrics"} (NVIDIA's DCGM exporter)} Setting:
   * {@code llmbench.telemetry.urls}.
   */
  String[] telemetryUrls() default {};
}
