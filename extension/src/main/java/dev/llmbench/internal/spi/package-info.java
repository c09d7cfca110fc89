/**
 * The seams between the machinery and the features: {@link dev.llmbench.internal.spi.Feature}, found through
 * {@link dev.llmbench.internal.spi.Features}, is all the runner, planner, extensions, reports and shard merge know of a
 * feature. A feature's one registration class (named {@code *Registration}, in the feature's package, listed in
 * {@code META-INF/services/dev.llmbench.internal.spi.Feature}) gives, each through a default method that gives
 * nothing: its settings; the deployments a sweep measures; the {@code SweepFeature}s it adds to a sweep ({@link
 * dev.llmbench.internal.spi.SweepSetup}) or to one rebuilt by a merge of shards, in its
 * {@linkplain dev.llmbench.internal.spi.Feature#sectionOrder() section order}; the parameters a sweep's methods take
 * from it ({@link dev.llmbench.internal.spi.Parameter}); what it records beside each level
 * ({@code core.LevelRecorder}) and how it judges replies ({@code core.ReplyJudge}); which benchmarks it runs and the
 * route they send to; and what it reads off any level for the JSON, the console and the page
 * ({@link dev.llmbench.internal.spi.LevelReading}).
 */
package dev.llmbench.internal.spi;
