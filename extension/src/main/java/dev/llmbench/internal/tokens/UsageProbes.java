package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import org.apiguardian.api.API;

/**
 * Counts by asking: each count is one request of {@code max_tokens} 1, not streamed, whose
 * {@code usage.prompt_tokens} is the count. Exact wherever the server reports usage, at the cost of a
 * prefill per count (so only before a level, never inside it).
 */
@API(status = INTERNAL)
public final class UsageProbes implements TokenCounter {

  private final OpenAiClient client;
  private final ApiStyle api;
  private final String model;
  private int sent;

  public UsageProbes(OpenAiClient client, ApiStyle api, String model) {
    this.client = client;
    this.api = api;
    this.model = model;
  }

  @Override
  public int count(CompletionRequest request) {
    RequestTrace t = client.send(api, model, request.withMaxTokens(1).withStream(false).withIgnoreEos(false),
        TextCapture.NONE);
    sent++;
    if (!t.succeeded()) {
      throw new TokenCountException("a probe request (max_tokens 1) for usage.prompt_tokens failed: " + t.failure()
          + "; check the endpoint, or align with a local tokenizer.json (@ExactInputTokens(method = TOKENIZER_JSON, "
          + "tokenizer = \"...\"))");
    }
    Integer prompt = t.serverUsage().map(Usage::promptTokens).orElse(null);
    if (prompt == null) {
      throw new TokenCountException("the server's answer to a probe request has no usage.prompt_tokens, so its prompt "
          + "tokens cannot be counted by asking; align with a local tokenizer.json (@ExactInputTokens(method = "
          + "TOKENIZER_JSON, tokenizer = \"path/to/tokenizer.json\"))");
    }
    return prompt;
  }

  /** Probe requests sent so far. */
  public int sent() {
    return sent;
  }

  @Override
  public String method() {
    return "usage.prompt_tokens of probe requests";
  }
}
