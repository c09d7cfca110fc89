/**
 * What you write first: the annotations that make a test a benchmark ({@link LlmEndpoint} for the server,
 * {@link ConcurrencySweep}, {@link RateSweep} or {@link TraceReplay} for the levels, {@link Workload},
 * {@link Measurement}, {@link Warmup} and {@link Slo} for what each level sends and must meet,
 * {@link AfterSweep} for assertions on the whole sweep), what the extension injects ({@link LlmClient},
 * {@link SweepLevelResult}, {@link EarlierLevels}, {@link EndpointInfo}, {@link SweepResult}), the
 * {@link Metric} that names every figure, and {@link SweepAnalysis} for results that already exist.
 *
 * <p>The rest is in packages by what you do next: {@code dev.llmbench.assertions} (the fluent assertions,
 * {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat}), {@code dev.llmbench.result}
 * (the values read off a result), {@code dev.llmbench.workload} (datasets, traces, exact lengths, shared
 * prefixes), {@code dev.llmbench.server} (a server the run starts, the deployment's facts, what the server
 * reports), {@code dev.llmbench.compare} (baselines, deployments side by side, capacity, quality) and
 * {@code dev.llmbench.client} (one request and its reply).
 */
package dev.llmbench;
