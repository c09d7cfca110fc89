package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Where an output-token count came from. */
@API(status = EXPERIMENTAL, since = "0.1")
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
