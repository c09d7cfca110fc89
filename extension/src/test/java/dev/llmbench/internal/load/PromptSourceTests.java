package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.ChatMessage;
import dev.llmbench.CompletionRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptSourceTests {

  @TempDir
  Path dir;

  @Test
  void jsonlReadsPlainPromptsAndConversations() throws IOException {
    Path file = Files.writeString(dir.resolve("prompts.jsonl"), """
        {"prompt": "What is the capital of France?"}

        {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}
        """);
    PromptSource w = PromptSource.jsonl(file, 0);
    CompletionRequest first = w.request(0, 16, true, 0.0);
    CompletionRequest second = w.request(1, 16, true, 0.0);
    assertThat(first.messages()).containsExactly(ChatMessage.user("What is the capital of France?"));
    assertThat(second.messages()).containsExactly(ChatMessage.system("Be brief."), ChatMessage.user("Hi"));
    assertThat(w.request(2, 16, true, 0.0).messages()).isEqualTo(first.messages()); // cycles
    assertThat(first.maxTokens()).isEqualTo(16);
    assertThat(first.ignoreEos()).isTrue();
    assertThat(first.temperature()).isEqualTo(0.0);
  }

  @Test
  void aBadLineNamesTheFileTheLineAndTheExpectedShape() throws IOException {
    Path file = Files.writeString(dir.resolve("bad.jsonl"), "{\"prompt\": \"ok\"}\n{\"text\": \"no\"}\n");
    assertThatThrownBy(() -> PromptSource.jsonl(file, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad.jsonl line 2").hasMessageContaining("{\"prompt\": \"...\"}");
  }

  @Test
  void aLineThatIsNotJsonSaysSoWithoutTheParsersInternalPosition() throws IOException {
    Path file = Files.writeString(dir.resolve("broken.jsonl"), "{\"prompt\": \"ok\"}\n{\"prompt\": \"unfinished\n");
    assertThatThrownBy(() -> PromptSource.jsonl(file, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("broken.jsonl line 2 is not a prompt: not JSON")
        .hasMessageNotContaining("Source: ").hasMessageNotContaining("line: 1, column");
  }

  @Test
  void anEmptyFileIsAnError() throws IOException {
    Path file = Files.writeString(dir.resolve("empty.jsonl"), "\n\n");
    assertThatThrownBy(() -> PromptSource.jsonl(file, 0)).hasMessageContaining("holds no prompts");
  }

  @Test
  void syntheticPromptsHaveTheTargetLengthAndRepeatForTheSameSeed() {
    PromptSource a = PromptSource.synthetic(128, 7);
    PromptSource b = PromptSource.synthetic(128, 7);
    String prompt = a.request(3, 8, true, null).prompt();
    assertThat(prompt.split(" ")).hasSize(128);
    assertThat(b.request(3, 8, true, null).prompt()).isEqualTo(prompt);
    assertThat(a.request(4, 8, true, null).prompt()).isNotEqualTo(prompt);
    assertThat(PromptSource.synthetic(128, 8).request(3, 8, true, null).prompt()).isNotEqualTo(prompt);
  }

  @Test
  void theSeedChoosesWhereTheBuiltInSetStarts() {
    assertThat(PromptSource.builtIn(1).request(0, 8, false, null).prompt())
        .isEqualTo(PromptSource.builtIn(1).request(0, 8, false, null).prompt())
        .isNotEqualTo(PromptSource.builtIn(2).request(0, 8, false, null).prompt());
  }
}
