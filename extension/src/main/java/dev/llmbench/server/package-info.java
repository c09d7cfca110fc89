/**
 * The server under test as it reports itself: the facts of its deployment ({@link DeploymentFacts}, read back as
 * {@link DeploymentDescription}), its startup log ({@link ServerStartup}), its Prometheus counters
 * ({@link ServerMetrics}, {@link TokenCrossCheck}, {@link PrefixCacheUse}) and its GPUs ({@link GpuTelemetry}).
 * {@link EndpointNotReadyException} is the failure of a server that never became ready. To have the run start the
 * server, see {@code dev.llmbench.launch}.
 *
 * <p>You need it against a real engine: the embedded one needs none of it.
 */
package dev.llmbench.server;
