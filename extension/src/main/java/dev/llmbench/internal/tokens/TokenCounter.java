package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.CompletionRequest;
import org.apiguardian.api.API;

/** Counts a request's prompt tokens as the server bills them in {@code usage.prompt_tokens}, chat template included. */
@API(status = INTERNAL)
public interface TokenCounter {

  /**
   * @throws TokenCountException when the count cannot be had (the route answered garbage, the server reports
   *                             no usage), saying what to change
   */
  int count(CompletionRequest request);

  /** How it counts, for reports: e.g. {@code llama-server POST /apply-template + POST /tokenize}. */
  String method();
}
