package dev.llmbench.internal.core;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.tokens.TokenizeRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tokens of a first token chunk the server did not report (no per-chunk usage), counted after the level with the
 * server's tokenize route (vLLM's and SGLang's {@code POST /tokenize}, llama-server's), so that TPOT divides by the
 * tokens after it (#36). Only requests whose usage says a chunk carried several tokens are counted; without a route,
 * or when it fails, they keep one token in the first chunk, as the chunks-versus-tokens warning says.
 */
final class FirstChunkTokens {

  private FirstChunkTokens() {}

  /** {@code traces}, each that needed it with its first chunk's tokens counted; the same list when none did. */
  static List<RequestTrace> counted(List<RequestTrace> traces, OpenAiClient client, String model) {
    if (traces.stream().noneMatch(FirstChunkTokens::needs)) return traces;
    Optional<TokenizeRoute> route;
    int empty;
    try {
      // The completions shape: the text alone, no chat template; what an empty text costs (a BOS) is taken off.
      route = TokenizeRoute.detect(client, ApiStyle.COMPLETIONS, model);
      if (route.isEmpty()) return traces;
      empty = route.get().count(CompletionRequest.of(""));
    } catch (RuntimeException e) {
      return traces; // no usable route: the first chunk counts one token, as the warning says
    }
    List<RequestTrace> out = new ArrayList<>(traces.size());
    for (RequestTrace t : traces) {
      if (!needs(t)) {
        out.add(t);
        continue;
      }
      try {
        int tokens = route.get().count(CompletionRequest.of(t.firstChunkText().orElseThrow())) - empty;
        int completion = t.usage().completionTokens();
        out.add(tokens >= 1 && tokens <= completion ? t.withFirstChunkTokens(tokens) : t);
      } catch (RuntimeException e) {
        out.add(t);
      }
    }
    return out;
  }

  /** A streamed success whose usage says some chunk carried several tokens, whose first chunk's count is unknown. */
  static boolean needs(RequestTrace t) {
    return t.succeeded() && t.streamed() && t.firstChunkTokens() < 0 && t.usage() != null
        && t.usage().completionTokens() != null && t.usage().completionTokens() > t.tokenChunks() && t.tokenChunks() > 0
        && t.firstChunkText().isPresent();
  }
}
