package dev.llmbench.internal.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Aligning against counters that behave as real tokenizers do: words of several tokens, a template of its own,
 * and a first word that costs more at the start of a message than after a space.
 */
class ExactTextTests {

  /**
   * A tokenizer of whitespace-split words, each word's cost from a table (3 for a word it does not know), with a
   * template of {@code template} tokens and a first word costing one more (a BPE space-prefix effect).
   */
  record FakeTokenizer(Map<String, Integer> costs, int template) implements TokenCounter {
    @Override
    public int count(CompletionRequest request) {
      int n = template;
      for (ChatMessage m : request.messages()) {
        String[] words = m.content().split(" ");
        for (int i = 0; i < words.length; i++) n += costs.getOrDefault(words[i], 3) + (i == 0 ? 1 : 0);
      }
      return n;
    }

    @Override
    public String method() {
      return "fake";
    }
  }

  private static CompletionRequest marked(String text, int index) {
    return CompletionRequest.ofMessages(List.of(ChatMessage.user(String.format("%010d", 12345L * (index + 1)) + " " + text)));
  }

  @Test
  void everyRequestHitsTheTargetExactlyWithWordsOfSeveralTokens() {
    FakeTokenizer tokenizer = new FakeTokenizer(Map.of("the", 1, "model", 2, "latency", 4), 9);
    for (int target : new int[] {16, 17, 100, 1001}) {
      ExactText text = ExactText.align(tokenizer, target, 42, "the chat API", ExactTextTests::marked);
      for (int i = 0; i < 50; i++) {
        assertThat(tokenizer.count(marked(text.text(i), i))).as("request %d at %d", i, target).isEqualTo(target);
      }
      assertThat(text.alignment().orElseThrow().plannedDeviation()).isZero();
    }
  }

  @Test
  void requestsDrawTheirOwnWordsAndRepeatForTheSameSeedAndIndex() {
    FakeTokenizer tokenizer = new FakeTokenizer(Map.of("the", 1, "model", 2, "token", 1), 5);
    ExactText a = ExactText.align(tokenizer, 200, 7, "the chat API", ExactTextTests::marked);
    ExactText b = ExactText.align(tokenizer, 200, 7, "the chat API", ExactTextTests::marked);
    assertThat(a.text(3)).isEqualTo(b.text(3)).isNotEqualTo(a.text(4));
    assertThat(a.units()).startsWith("the=1, a=3");
  }

  @Test
  void blocksAreExactlyTheirTokensAndEqualForEqualSeeds() {
    FakeTokenizer tokenizer = new FakeTokenizer(Map.of("the", 1, "model", 2, "latency", 4), 9);
    ExactText text = ExactText.align(tokenizer, 100, 3, "the chat API", ExactTextTests::marked);
    int shortest = tokenizer.count(marked(ExactText.LEAD, 0));
    for (int tokens : new int[] {1, 2, 16, 512}) {
      assertThat(tokenizer.count(marked(ExactText.LEAD + text.block(77, tokens), 0)) - shortest).isEqualTo(tokens);
    }
    assertThat(text.block(5, 512)).isEqualTo(text.block(5, 512)).isNotEqualTo(text.block(6, 512));
  }

  @Test
  void aTargetBelowTheShortestPromptNamesTheShortestLength() {
    FakeTokenizer tokenizer = new FakeTokenizer(Map.of("the", 1), 9);
    // template 9 + marker 3 + 1 (first word) + lead word 3 = 16
    assertThatThrownBy(() -> ExactText.align(tokenizer, 15, 1, "the chat API", ExactTextTests::marked))
        .isInstanceOf(TokenCountException.class)
        .hasMessageContaining("inputTokens = 15 is below what the server bills for the shortest prompt this workload "
            + "sends on the chat API: 16 tokens")
        .hasMessageContaining("ask for at least 16 input tokens");
  }

  @Test
  void withoutAOneTokenWordItSaysSoAndNamesTheTokenizerJson() {
    FakeTokenizer tokenizer = new FakeTokenizer(Map.of(), 2); // every word 3 tokens
    assertThatThrownBy(() -> ExactText.align(tokenizer, 100, 1, "the chat API", ExactTextTests::marked))
        .isInstanceOf(TokenCountException.class).hasMessageContaining("no one-token word found")
        .hasMessageContaining("TOKENIZER_JSON");
  }
}
