/**
 * What you write first: the annotations that make a test a benchmark ({@link LlmEndpoint} for the server,
 * {@link ConcurrencySweep} or {@link RateSweep} for the levels, {@link Workload}, {@link Measurement},
 * {@link Warmup} and {@link Slo} for what each level sends and must meet, {@link AfterSweep} for assertions on the
 * whole sweep), what the extension injects ({@link LlmClient}, {@link SweepLevelResult}, {@link EarlierLevels},
 * {@link EndpointInfo}, {@link SweepResult}) and the {@link Metric} that names every figure.
 *
 * <p>The shared API is in {@code dev.llmbench.assertions} (the fluent assertions,
 * {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat}), {@code dev.llmbench.result} (the
 * values read off a result), {@code dev.llmbench.server} (the deployment's facts, what the server reports) and
 * {@code dev.llmbench.client} (one request and its reply). Each feature has a package of its own:
 * {@code baseline}, {@code capacity}, {@code deployments}, {@code quality}, {@code sessions}, {@code trace}
 * ({@code @TraceReplay}), {@code datasets}, {@code workload}, {@code telemetry}, {@code launch}, {@code offline}
 * ({@code SweepAnalysis}) and {@code history}.
 */
package dev.llmbench;
