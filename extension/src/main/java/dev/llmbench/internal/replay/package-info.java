/**
 * The trace feature of a sweep: what each level replaying a trace sent, as the reports show it (the rows, their
 * requested lengths against the server's counts, two histograms), behind {@code SweepFeature}, so that reports
 * never name it.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.replay;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
