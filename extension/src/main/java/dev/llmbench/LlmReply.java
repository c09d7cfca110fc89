package dev.llmbench;

import dev.llmbench.internal.client.Excerpt;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A model's answer to one ad-hoc request, with its timings. */
public final class LlmReply {

  private static final Pattern FENCE = Pattern.compile("```([\\w+#.-]*)[^\\n]*\\n(.*?)```", Pattern.DOTALL);

  private final String prompt;
  private final RequestMetrics metrics;

  LlmReply(String prompt, RequestMetrics metrics) {
    this.prompt = prompt;
    this.metrics = metrics;
  }

  public String prompt() {
    return prompt;
  }

  public String content() {
    return metrics.trace().content();
  }

  /** The reasoning the server sent apart from the content ({@code reasoning_content} or {@code reasoning}); empty if none. */
  public String reasoning() {
    return metrics.trace().reasoning();
  }

  public Optional<String> finishReason() {
    return Optional.ofNullable(metrics.trace().finishReason());
  }

  public Optional<Usage> usage() {
    return metrics.trace().serverUsage();
  }

  public RequestMetrics metrics() {
    return metrics;
  }

  /** The body of the first fenced code block in the content, of any language. */
  public Optional<String> codeBlock() {
    return codeBlocks().stream().findFirst().map(CodeBlock::code);
  }

  /** The body of the first fenced code block tagged {@code language} (e.g. {@code python}). */
  public Optional<String> codeBlock(String language) {
    return codeBlocks().stream().filter(b -> b.language().equalsIgnoreCase(language)).findFirst().map(CodeBlock::code);
  }

  public List<CodeBlock> codeBlocks() {
    List<CodeBlock> blocks = new ArrayList<>();
    Matcher m = FENCE.matcher(content());
    while (m.find()) blocks.add(new CodeBlock(m.group(1), m.group(2)));
    return blocks;
  }

  /** A fenced code block: its language tag (possibly empty) and its code. */
  public record CodeBlock(String language, String code) {}

  @Override
  public String toString() {
    return "LlmReply[" + Excerpt.of(content(), 80) + "]";
  }
}
