package dev.llmbench.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.client.LlmReply;
import dev.llmbench.internal.format.Excerpt;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.AbstractStringAssert;
import org.assertj.core.api.Assertions;

/** Assertions on a model's reply to a smoke prompt; failures quote the prompt and the reply. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class LlmReplyAssert extends AbstractAssert<LlmReplyAssert, LlmReply> {

  LlmReplyAssert(LlmReply actual) {
    super(actual, LlmReplyAssert.class);
  }

  /**
   * The content contains {@code expected}.
   *
   * @param expected the text to find
   * @return this assertion
   */
  public LlmReplyAssert contentContains(String expected) {
    isNotNull();
    if (!actual.content().contains(expected)) {
      failWithMessage("expected the reply to %s to contain %s but it was:%n  %s", quote(actual.prompt()), quote(expected),
          quote(actual.content()));
    }
    return this;
  }

  /**
   * The content contains {@code expected}, in any case.
   *
   * @param expected the text to find
   * @return this assertion
   */
  public LlmReplyAssert contentContainsIgnoringCase(String expected) {
    isNotNull();
    if (!actual.content().toLowerCase(Locale.ROOT).contains(expected.toLowerCase(Locale.ROOT))) {
      failWithMessage("expected the reply to %s to contain %s (any case) but it was:%n  %s", quote(actual.prompt()),
          quote(expected), quote(actual.content()));
    }
    return this;
  }

  /** {@return an assertion on the content} */
  public AbstractStringAssert<?> content() {
    isNotNull();
    return Assertions.assertThat(actual.content()).as("content of the reply to %s", quote(actual.prompt()));
  }

  /**
   * The reply has reasoning ({@code reasoning_content} or {@code reasoning}).
   *
   * @return this assertion
   */
  public LlmReplyAssert hasReasoning() {
    isNotNull();
    if (actual.reasoning().isEmpty()) {
      failWithMessage("expected reasoning (reasoning_content or reasoning) in the reply to %s but there was none",
          quote(actual.prompt()));
    }
    return this;
  }

  /**
   * The reply has no reasoning.
   *
   * @return this assertion
   */
  public LlmReplyAssert hasNoReasoning() {
    isNotNull();
    if (!actual.reasoning().isEmpty()) {
      failWithMessage("expected no reasoning in the reply to %s but it had %d characters", quote(actual.prompt()),
          actual.reasoning().length());
    }
    return this;
  }

  /**
   * The reasoning is at least {@code min} characters long.
   *
   * @return this assertion
   * @param min the fewest characters
   */
  public LlmReplyAssert hasReasoningOfAtLeast(int min) {
    hasReasoning();
    if (actual.reasoning().length() < min) {
      failWithMessage("expected at least %d characters of reasoning in the reply to %s but there were %d",
          min, quote(actual.prompt()), actual.reasoning().length());
    }
    return this;
  }

  /**
   * The server ended the reply with this {@code finish_reason}.
   *
   * @param finishReason e.g. {@code stop} or {@code length}
   * @return this assertion
   */
  public LlmReplyAssert finishedWith(String finishReason) {
    isNotNull();
    Optional<String> actualReason = actual.finishReason();
    if (!actualReason.equals(Optional.of(finishReason))) {
      failWithMessage("expected finish_reason %s for the reply to %s but it was %s", quote(finishReason),
          quote(actual.prompt()), actualReason.map(LlmReplyAssert::quote).orElse("absent"));
    }
    return this;
  }

  /**
   * The content has a fenced code block in {@code language}.
   *
   * @param language the tag after the opening fence
   * @return an assertion on the block's code
   */
  public AbstractStringAssert<?> codeBlock(String language) {
    isNotNull();
    Optional<String> code = actual.codeBlock(language);
    if (code.isEmpty()) {
      failWithMessage("expected a ```%s code block in the reply to %s but it was:%n  %s", language, quote(actual.prompt()),
          quote(actual.content()));
    }
    return Assertions.assertThat(code.get()).as("%s code in the reply to %s", language, quote(actual.prompt()));
  }

  private static String quote(String s) {
    return "\"" + Excerpt.of(s, 300) + "\"";
  }
}
