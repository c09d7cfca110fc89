/**
 * Trace replay: Mooncake-style JSONL traces ({@code timestamp} in ms, {@code input_length}, {@code output_length},
 * {@code hash_ids} naming blocks of tokens, optional {@code session_id}), read and checked in one streamed pass
 * before any load, then streamed again row by row as requests whose prompts share exactly the blocks their
 * {@code hash_ids} share, sent at the trace's own timestamps (scaled) or under a sweep's concurrency or rate.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
