package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * An immutable request to an OpenAI-compatible server; each {@code with*} call returns a new one.
 *
 * @param messages    the conversation; for {@link ApiStyle#COMPLETIONS} the last message's content is the prompt
 * @param maxTokens   {@code max_tokens}, or null for the server's default
 * @param temperature {@code temperature}, or null for the server's default
 * @param ignoreEos   {@code ignore_eos} (vLLM, SGLang, llama.cpp): generate exactly {@code max_tokens}
 * @param stream      stream the answer as server-sent events, with {@code stream_options.include_usage}
 * @param seed        {@code seed}, or null
 * @param bodyFields  further top-level fields of the request body, each a JSON value as text, sent as they are
 *                    (a dataset row's {@code tools} or {@code response_format}); empty for none
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record CompletionRequest(
    List<ChatMessage> messages, Integer maxTokens, Double temperature, boolean ignoreEos, boolean stream, Long seed,
    Map<String, String> bodyFields) {

  /**
   * Copies {@code messages}, and rejects a request without a message or with {@code maxTokens} below 1.
   *
   * @param messages    the conversation; for {@link ApiStyle#COMPLETIONS} the last message's content is the prompt
   * @param maxTokens   {@code max_tokens}, or null for the server's default
   * @param temperature {@code temperature}, or null for the server's default
   * @param ignoreEos   {@code ignore_eos} (vLLM, SGLang, llama.cpp): generate exactly {@code max_tokens}
   * @param stream      stream the answer as server-sent events, with {@code stream_options.include_usage}
   * @param seed        {@code seed}, or null
   * @param bodyFields  further top-level fields of the request body, each a JSON value as text; copied
   */
  public CompletionRequest {
    messages = List.copyOf(messages);
    bodyFields = Map.copyOf(bodyFields);
    if (messages.isEmpty()) throw new IllegalArgumentException("a request needs at least one message");
    if (maxTokens != null && maxTokens < 1) throw new IllegalArgumentException("max_tokens must be at least 1, was " + maxTokens);
  }

  /**
   * A request without further body fields.
   *
   * @param messages    the conversation, at least one message
   * @param maxTokens   {@code max_tokens}, or null for the server's default
   * @param temperature {@code temperature}, or null for the server's default
   * @param ignoreEos   {@code ignore_eos}: generate exactly {@code max_tokens}
   * @param stream      stream the answer as server-sent events
   * @param seed        {@code seed}, or null
   */
  public CompletionRequest(List<ChatMessage> messages, Integer maxTokens, Double temperature, boolean ignoreEos, boolean stream,
      Long seed) {
    this(messages, maxTokens, temperature, ignoreEos, stream, seed, Map.of());
  }

  /**
   * {@return a streamed request with one user message and the server's defaults for everything else}
   *
   * @param prompt the user message's text
   */
  public static CompletionRequest of(String prompt) {
    return new CompletionRequest(List.of(ChatMessage.user(Objects.requireNonNull(prompt, "prompt"))), null, null,
        false, true, null);
  }

  /**
   * {@return a streamed request with these messages and the server's defaults for everything else}
   *
   * @param messages the conversation, at least one message
   */
  public static CompletionRequest ofMessages(List<ChatMessage> messages) {
    return new CompletionRequest(messages, null, null, false, true, null);
  }

  /**
   * {@return this request with {@code max_tokens} set}
   *
   * @param maxTokens the most tokens to generate, at least 1
   */
  public CompletionRequest withMaxTokens(int maxTokens) {
    return new CompletionRequest(messages, maxTokens, temperature, ignoreEos, stream, seed, bodyFields);
  }

  /**
   * {@return this request with {@code temperature} set}
   *
   * @param temperature the sampling temperature; 0 for greedy decoding
   */
  public CompletionRequest withTemperature(double temperature) {
    return new CompletionRequest(messages, maxTokens, temperature, ignoreEos, stream, seed, bodyFields);
  }

  /**
   * {@return this request with {@code ignore_eos} set}
   *
   * @param ignoreEos whether the server generates on past the end-of-sequence token, up to {@code max_tokens}
   */
  public CompletionRequest withIgnoreEos(boolean ignoreEos) {
    return new CompletionRequest(messages, maxTokens, temperature, ignoreEos, stream, seed, bodyFields);
  }

  /**
   * {@return this request, streamed or not}
   *
   * @param stream whether the server streams the reply as server-sent events
   */
  public CompletionRequest withStream(boolean stream) {
    return new CompletionRequest(messages, maxTokens, temperature, ignoreEos, stream, seed, bodyFields);
  }

  /**
   * {@return this request with {@code seed} set}
   *
   * @param seed the sampling seed
   */
  public CompletionRequest withSeed(long seed) {
    return new CompletionRequest(messages, maxTokens, temperature, ignoreEos, stream, seed, bodyFields);
  }

  /**
   * This request with a further top-level body field, {@code json} being its JSON value as text, e.g.
   * {@code withBodyField("response_format", "{\"type\": \"json_object\"}")}.
   *
   * @param name the field's name
   * @param json the field's JSON value, as text
   * @return the new request
   */
  public CompletionRequest withBodyField(String name, String json) {
    Map<String, String> fields = new LinkedHashMap<>(bodyFields);
    fields.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(json, "json"));
    return new CompletionRequest(messages, maxTokens, temperature, ignoreEos, stream, seed, fields);
  }

  /** {@return the text a completions-style request sends as {@code prompt}} */
  public String prompt() {
    return messages.get(messages.size() - 1).content();
  }
}
