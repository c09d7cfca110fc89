/**
 * The seams between the machinery and the features: {@link dev.llmbench.internal.spi.Feature}, found through
 * {@link dev.llmbench.internal.spi.Features}, is all the runner, planner, extensions, reports and shard merge know of a
 * feature.
 */
package dev.llmbench.internal.spi;
