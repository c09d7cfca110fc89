package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A local {@code tokenizer.json} (Hugging Face's format) through DJL's binding of the Rust tokenizers, read
 * from a file path with no hub access. It counts the messages' text only: a chat template lives in Jinja,
 * not in this file, so what the server adds around {@code k} messages is measured once per {@code k} with one
 * probe request's {@code usage.prompt_tokens} when the server reports usage (and is 0, said so, when it does
 * not). DJL is an optional dependency of LLMBench (18 MB of native libraries): a build that uses this
 * method adds {@code ai.djl.huggingface:tokenizers}.
 */
@API(status = INTERNAL)
public final class TokenizerJson implements TokenCounter, AutoCloseable {

  private final HuggingFaceTokenizer tokenizer;
  private final Path file;
  private final Optional<UsageProbes> probes;
  private final Map<Integer, Integer> templateTokens = new HashMap<>();
  private boolean templateMeasured = true;

  private TokenizerJson(HuggingFaceTokenizer tokenizer, Path file, Optional<UsageProbes> probes) {
    this.tokenizer = tokenizer;
    this.file = file;
    this.probes = probes;
  }

  /**
   * @param probes counts the template's tokens; empty to leave them out
   * @throws IllegalArgumentException when the file does not exist or is not a tokenizer
   */
  public static TokenizerJson open(Path file, Optional<UsageProbes> probes) {
    Counters.checkTokenizerFile(file);
    try {
      // No hub, no cache of downloaded files: the path is all there is.
      return new TokenizerJson(HuggingFaceTokenizer.newInstance(file, Map.of()), file, probes);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("'" + file + "' is not a tokenizer.json DJL can read (" + e.getMessage()
          + "); give the tokenizer.json of the served model, as its Hugging Face repository has it", e);
    }
  }

  @Override
  public int count(CompletionRequest request) {
    int text = 0;
    for (ChatMessage m : request.messages()) text += textTokens(m.content());
    return text + templateTokens(request.messages().size());
  }

  int textTokens(String text) {
    return tokenizer.encode(text, false, false).getIds().length;
  }

  private int templateTokens(int messages) {
    Integer known = templateTokens.get(messages);
    if (known != null) return known;
    int overhead = 0;
    try {
      if (probes.isEmpty()) throw new TokenCountException("no probes");
      List<ChatMessage> probe = java.util.Collections.nCopies(messages, ChatMessage.user("Hello"));
      overhead = probes.get().count(CompletionRequest.ofMessages(probe)) - messages * textTokens("Hello");
    } catch (TokenCountException e) {
      templateMeasured = false; // no usage to measure it by: the text alone, as the method says
    }
    templateTokens.put(messages, overhead);
    return overhead;
  }

  @Override
  public String method() {
    return "tokenizer.json " + file.getFileName() + (templateMeasured ? " + the template's tokens from one probe's usage"
        : " (the template's tokens not counted: the server reports no usage)");
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
