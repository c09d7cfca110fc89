package dev.llmbench;

/** Which OpenAI-compatible route a request goes to. */
public enum ApiStyle {
  /** {@code POST /v1/chat/completions} with {@code messages}. */
  CHAT("/v1/chat/completions"),
  /** {@code POST /v1/completions} with a plain {@code prompt}. */
  COMPLETIONS("/v1/completions");

  private final String path;

  ApiStyle(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }
}
