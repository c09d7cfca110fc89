/**
 * Multi-turn sessions ({@code @Sessions}): the conversations a level sends ({@link
 * dev.llmbench.internal.session.SessionWorkload}, synthetic or read whole from a ShareGPT or JSONL file by {@link
 * dev.llmbench.internal.session.ConversationFiles} before any load), and what a level says of them by turn index
 * ({@link dev.llmbench.internal.session.SessionFeature}): latency, history length and prefix-cache hit per turn, and
 * the findings when later turns slow down or the cache stops helping. {@code internal.load.SessionRunner} sends them.
 *
 * <p>The feature reports only through the typed seam of {@link dev.llmbench.internal.core.SweepFeature}: no report
 * names it.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.session;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
