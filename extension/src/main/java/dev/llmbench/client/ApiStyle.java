package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Which OpenAI-compatible route a request goes to. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ApiStyle {
  /** {@code POST /v1/chat/completions} with {@code messages}. */
  CHAT("/v1/chat/completions"),
  /** {@code POST /v1/completions} with a plain {@code prompt}. */
  COMPLETIONS("/v1/completions");

  private final String path;

  ApiStyle(String path) {
    this.path = path;
  }

  /** {@return the route requests of this style go to, e.g. {@code /v1/chat/completions}} */
  public String path() {
    return path;
  }
}
