package dev.llmbench;

/** Where an output-token count came from. */
public enum TokenSource {
  /** The server's {@code usage.completion_tokens}. */
  SERVER_USAGE,
  /** The number of streamed chunks that carried text: an estimate, since one chunk may hold several tokens. */
  CHUNK_COUNT_ESTIMATE,
  /** Some requests had {@code usage}, others not. */
  MIXED,
  /** No successful request. */
  NONE
}
