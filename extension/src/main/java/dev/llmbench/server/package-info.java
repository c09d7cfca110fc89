/**
 * The server under test: a server the run starts itself ({@link LaunchServer} as a process,
 * {@link LaunchContainer} in a container), the facts of its deployment ({@link DeploymentFacts}, read back
 * as {@link DeploymentDescription}), and what it says about itself: its startup log ({@link ServerStartup}),
 * its Prometheus counters ({@link ServerMetrics}, {@link TokenCrossCheck}, {@link PrefixCacheUse}) and its
 * GPUs ({@link GpuTelemetry}). {@link EndpointNotReadyException} is the failure of a server that never
 * became ready.
 *
 * <p>You need it against a real engine: the embedded one needs none of it.
 */
package dev.llmbench.server;
