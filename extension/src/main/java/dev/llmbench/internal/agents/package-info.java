/**
 * Agents and embeddings beside speed: what each level's structured replies came to (tool calls and JSON answers,
 * judged by {@link dev.llmbench.internal.structured.ReplyCheck} as they arrive), the finding when the unparsed rate
 * rises with load, and an embeddings level's inputs and tokens per second. The feature reports only through
 * {@link dev.llmbench.internal.core.SweepFeature}: no report names it.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.agents;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
