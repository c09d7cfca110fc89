package dev.llmbench.trace;

/**
 * One row of a trace, checked.
 *
 * @param line         its line in the file, from 1
 * @param timestampMs  when it arrived, in milliseconds from any origin
 * @param inputLength  prompt tokens
 * @param outputLength tokens to generate ({@code max_tokens})
 * @param hashIds      the ids of its prompt's blocks, in order; equal ids are equal blocks; empty when the row
 *                     gave none (its blocks are then its own)
 * @param sessionId    the row's session, or null (read, not used: sessions are replayed as single requests)
 */
record TraceRow(int line, double timestampMs, int inputLength, int outputLength, long[] hashIds, String sessionId) {}
