package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.load.PromptSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** Picks how to count prompt tokens for an endpoint: the server's tokenize route, probe requests' usage, a tokenizer.json. */
@API(status = INTERNAL)
public final class Counters {

  private Counters() {}

  /**
   * @throws TokenCountException when the chosen method cannot count here (no route, garbage, no usage), saying what to set
   */
  public static TokenCounter choose(PromptSource.Exact.Counting method, String tokenizer, OpenAiClient client, ApiStyle api,
      String model) {
    switch (method) {
      case TOKENIZE_ROUTE:
        return TokenizeRoute.detect(client, api, model).orElseThrow(() -> new TokenCountException("the server at "
            + client.baseUrl() + " has no tokenize route that counts " + (api == ApiStyle.CHAT ? "chat messages" : "prompts")
            + " (POST /tokenize answered a 4xx); use method = USAGE_PROBES or AUTO"));
      case USAGE_PROBES:
        return new UsageProbes(client, api, model);
      case TOKENIZER_JSON:
        if (tokenizer.isBlank()) {
          throw new TokenCountException("method = TOKENIZER_JSON needs 'tokenizer', the path of the model's tokenizer.json");
        }
        return tokenizerJson(tokenizer, Optional.of(new UsageProbes(client, api, model)));
      default:
        break;
    }
    Optional<TokenizeRoute> route = TokenizeRoute.detect(client, api, model);
    if (route.isPresent()) return route.get();
    UsageProbes probes = new UsageProbes(client, api, model);
    try {
      probes.count(CompletionRequest.ofMessages(List.of(ChatMessage.user("Hello"))));
      return probes;
    } catch (TokenCountException e) {
      if (tokenizer.isBlank()) throw e;
      return tokenizerJson(tokenizer, Optional.empty());
    }
  }

  /**
   * A missing file fails before anything else is tried, with the absolute path it looked at (here, not in
   * {@link TokenizerJson}, so that checking it needs no DJL on the class path).
   */
  public static void checkTokenizerFile(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("the tokenizer file '" + file + "' does not exist (looked at "
          + file.toAbsolutePath() + "); give the path of the served model's tokenizer.json (from its Hugging Face "
          + "repository), or leave 'tokenizer' empty to align through the server's tokenize route or usage");
    }
  }

  private static TokenCounter tokenizerJson(String tokenizer, Optional<UsageProbes> probes) {
    Path file = Path.of(tokenizer);
    checkTokenizerFile(file);
    try {
      return TokenizerJson.open(file, probes);
    } catch (NoClassDefFoundError e) {
      throw new TokenCountException("a tokenizer.json is read with DJL, which LLMBench declares optional: add "
          + "ai.djl.huggingface:tokenizers:0.38.0 to your test dependencies", e);
    }
  }
}
