/**
 * Recorded traces ({@link Trace}, Mooncake-style rows), sent under a sweep's load or replayed at their own clock
 * ({@link TraceReplay}), with the schedule lag of each level.
 */
package dev.llmbench.trace;
