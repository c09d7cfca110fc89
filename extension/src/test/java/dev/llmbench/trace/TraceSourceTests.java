package dev.llmbench.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RowSource;
import dev.llmbench.internal.tokens.ExactRows;
import dev.llmbench.internal.tokens.ExactText;
import dev.llmbench.internal.tokens.TokenCountException;
import dev.llmbench.internal.tokens.TokenCounter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace's blocks once aligned against a counter that behaves as a real tokenizer does (words of several tokens,
 * a template of its own, a first word that costs more at the start of the message): every full block exactly
 * its size, every row exactly its input_length, equal ids byte-equal blocks, and a row too short for the template
 * failing before load.
 */
class TraceSourceTests {

  /** Whitespace-split words, each its cost from a table (3 for one it does not know), a template, and a first word one dearer. */
  record FakeTokenizer(Map<String, Integer> costs, int template) implements TokenCounter {
    int words(String text) {
      int n = 0;
      String[] words = text.strip().split(" ");
      for (String w : words) n += costs.getOrDefault(w, 3);
      return n;
    }

    @Override
    public int count(CompletionRequest request) {
      int n = template;
      for (ChatMessage m : request.messages()) n += words(m.content()) + 1;
      return n;
    }

    @Override
    public String method() {
      return "fake";
    }
  }

  static final FakeTokenizer TOKENIZER = new FakeTokenizer(Map.of("the", 1, "model", 2, "latency", 4, "of", 1), 7);

  static final String[] ROWS = {
      "{\"timestamp\": 0, \"input_length\": 64, \"output_length\": 2, \"hash_ids\": [1, 2, 3, 4]}",
      "{\"timestamp\": 1, \"input_length\": 60, \"output_length\": 2, \"hash_ids\": [1, 2, 3, 5]}",
      "{\"timestamp\": 2, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [1, 2, 6]}",
      "{\"timestamp\": 3, \"input_length\": 64, \"output_length\": 2, \"hash_ids\": [7, 2, 3, 4]}",
      "{\"timestamp\": 4, \"input_length\": 50, \"output_length\": 2}",
      "{\"timestamp\": 5, \"input_length\": 33, \"output_length\": 2, \"hash_ids\": [1, 2, 9]}"};

  static ExactRows rows(Path dir, String... lines) throws IOException {
    Path file = dir.resolve("trace.jsonl");
    Files.write(file, List.of(lines));
    PromptSource source = TraceSource.rows(TraceSource.check(file, 16));
    return (ExactRows) source.rowSource().orElseThrow();
  }

  static ExactText align(ExactRows rows) {
    return ExactText.align(TOKENIZER, rows.sampleTokens(), 5, "the chat API",
        (t, k) -> CompletionRequest.ofMessages(List.of(ChatMessage.user(t))));
  }

  static String prompt(RowSource rows, int index, long namespace) {
    return rows.request(index, true, null, namespace).messages().get(0).content();
  }

  @Test
  void alignedRowsHaveExactlyTheirInputLengthAndFullBlocksExactlyTheBlockSize(@TempDir Path dir) throws IOException {
    ExactRows raw = rows(dir, ROWS);
    ExactText text = align(raw);
    RowSource aligned = raw.aligned(text);
    int[] lengths = {64, 60, 48, 64, 50, 33};
    for (int i = 0; i < ROWS.length; i++) {
      String p = prompt(aligned, i, 11);
      assertThat(TOKENIZER.count(CompletionRequest.ofMessages(List.of(ChatMessage.user(p))))).as("row %d", i)
          .isEqualTo(lengths[i]);
      assertThat(aligned.inputTokens(i)).hasValue(lengths[i]);
    }
    // Row 0's blocks one by one: the lead word, then 16 tokens per full block (the last one pays for the template).
    String p0 = prompt(aligned, 0, 11);
    assertThat(p0).startsWith(text.lead() + " ");
    int overhead = text.overhead();
    assertThat(overhead).as("template 7 + first word's extra 1 + the lead word's 3").isEqualTo(11);
    String rest = p0.substring(text.lead().length());
    String[] words = rest.strip().split(" ");
    int tokens = 0;
    int boundaries = 0;
    for (String w : words) {
      tokens += TOKENIZER.costs().getOrDefault(w, 3);
      if (tokens % 16 == 0 && tokens <= 48) boundaries++;
    }
    assertThat(tokens).isEqualTo(64 - overhead);
    assertThat(boundaries).as("a block ends exactly at 16, 32 and 48 tokens").isEqualTo(3);
    assertThat(aligned.alignment().orElseThrow().requestedTokens()).as("each row its own").isZero();
    assertThat(aligned.alignment().orElseThrow().method()).isEqualTo("fake");
  }

  @Test
  void equalIdsAreByteEqualBlocksAndOtherIdsOrNamespacesShareNothing(@TempDir Path dir) throws IOException {
    ExactRows raw = rows(dir, ROWS);
    ExactText text = align(raw);
    RowSource aligned = raw.aligned(text);
    String r0 = prompt(aligned, 0, 11);
    String r1 = prompt(aligned, 1, 11);
    String r2 = prompt(aligned, 2, 11);
    String r3 = prompt(aligned, 3, 11);
    String three = text.lead() + text.block(seed(11, 1), 16) + text.block(seed(11, 2), 16) + text.block(seed(11, 3), 16);
    assertThat(r0).startsWith(three);
    assertThat(r1).startsWith(three).isNotEqualTo(r0);
    assertThat(r2).startsWith(text.lead() + text.block(seed(11, 1), 16) + text.block(seed(11, 2), 16))
        .doesNotStartWith(three);
    // Row 5 [1, 2, 9], 33 tokens: block 1 full, block 2 cut short by the template, the start of block 2's text.
    String r5 = prompt(aligned, 5, 11);
    assertThat(r5).startsWith(text.lead() + text.block(seed(11, 1), 16));
    String[] cut = r5.substring((text.lead() + text.block(seed(11, 1), 16)).length()).strip().split(" ");
    String[] full = text.block(seed(11, 2), 16).strip().split(" ");
    assertThat(TOKENIZER.words(String.join(" ", cut))).isEqualTo(33 - 11 - 16);
    // The full block's words as far as they fit (a word of several tokens cannot be split), then others that fit.
    int left = 33 - 11 - 16;
    int same = 0;
    while (same < full.length && TOKENIZER.costs().getOrDefault(full[same], 3) <= left) {
      left -= TOKENIZER.costs().getOrDefault(full[same], 3);
      same++;
    }
    assertThat(same).as("words shared with the full block").isPositive();
    assertThat(List.of(cut).subList(0, same)).isEqualTo(List.of(full).subList(0, same));
    // Another first id shares nothing at the start; another namespace (another level) shares nothing at all.
    assertThat(r3.substring(text.lead().length(), text.lead().length() + 20))
        .isNotEqualTo(r0.substring(text.lead().length(), text.lead().length() + 20));
    assertThat(prompt(aligned, 0, 12).substring(0, 40)).isNotEqualTo(r0.substring(0, 40));
    // The same rows aligned again make the same bytes.
    assertThat(prompt(raw.aligned(align(raw)), 1, 11)).isEqualTo(r1);
  }

  @Test
  void aRowShorterThanTheTemplateFailsBeforeLoadNamingItsLine(@TempDir Path dir) throws IOException {
    ExactRows raw = rows(dir, ROWS[0], ROWS[1], "{\"timestamp\": 9, \"input_length\": 8, \"output_length\": 2, \"hash_ids\": [1]}");
    ExactText text = align(raw);
    assertThatThrownBy(() -> raw.aligned(text)).isInstanceOf(TokenCountException.class)
        .hasMessageContaining("trace.jsonl line 3, field \"input_length\": 8 is below what the server bills for the shortest "
            + "aligned prompt: 12 tokens")
        .hasMessageContaining("an input_length of at least 12");
  }

  private static long seed(long namespace, long id) {
    return BlockText.mix(namespace ^ BlockText.mix(id));
  }
}
