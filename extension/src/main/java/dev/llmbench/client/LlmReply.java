package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.internal.format.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A model's answer to one ad-hoc request, with its timings.
 *
 * @param prompt       the last message sent
 * @param content      the whole content
 * @param reasoning    the reasoning the server sent apart from the content ({@code reasoning_content} or
 *                     {@code reasoning}); empty if none
 * @param finishReason the last {@code finish_reason}
 * @param usage        the server's {@code usage}
 * @param request      the request's timings and token counts
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record LlmReply(String prompt, String content, String reasoning, Optional<String> finishReason,
    Optional<Usage> usage, RequestResult request) {

  private static final Pattern FENCE = Pattern.compile("```([\\w+#.-]*)[^\\n]*\\n(.*?)```", Pattern.DOTALL);

  /** {@return the body of the first fenced code block in the content, of any language} */
  public Optional<String> codeBlock() {
    return codeBlocks().stream().findFirst().map(CodeBlock::code);
  }

  /**
   * {@return the body of the first fenced code block tagged {@code language} (e.g. {@code python})}
   *
   * @param language the tag after the opening fence
   */
  public Optional<String> codeBlock(String language) {
    return codeBlocks().stream().filter(b -> b.language().equalsIgnoreCase(language)).findFirst().map(CodeBlock::code);
  }

  /** {@return every fenced code block of the content, in order} */
  public List<CodeBlock> codeBlocks() {
    List<CodeBlock> blocks = new ArrayList<>();
    Matcher m = FENCE.matcher(content);
    while (m.find()) blocks.add(new CodeBlock(m.group(1), m.group(2)));
    return blocks;
  }

  /** A fenced code block: its language tag (possibly empty) and its code. */
  public record CodeBlock(String language, String code) {}

  @Override
  public String toString() {
    return "LlmReply[" + Excerpt.of(content, 80) + "]";
  }
}
