package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.workload.LoadedDataset;
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

  @Test
  void aUniquePrefixStartsTheFirstAndLastMessagesAndDiffersPerSaltAndIndex() {
    CompletionRequest r = CompletionRequest.ofMessages(java.util.List.of(ChatMessage.system("Be brief."), ChatMessage.user("Hi")));
    CompletionRequest a = Markers.withUniquePrefix(r, 7, 0);
    String marker = Markers.marker(7, 0);
    assertThat(marker).matches("[0-9a-f]{8}");
    assertThat(a.messages()).containsExactly(ChatMessage.system(marker + " Be brief."), ChatMessage.user(marker + " Hi"));
    assertThat(Markers.withUniquePrefix(r, 7, 0)).isEqualTo(a);
    java.util.Set<String> markers = new java.util.HashSet<>();
    for (long salt = 1; salt <= 20; salt++) {
      for (int i = 0; i < 50; i++) markers.add(Markers.marker(salt, i));
    }
    assertThat(markers).hasSize(1000);
    // Neighbouring requests differ from the first digit on, as often as 16 values allow.
    long sameFirst = java.util.stream.IntStream.range(0, 999)
        .filter(i -> Markers.marker(3, i).charAt(0) == Markers.marker(3, i + 1).charAt(0)).count();
    assertThat(sameFirst).isLessThan(999 / 8);
  }

  @Test
  void aWorkloadAvoidsThePrefixCacheUnlessToldToReuseIt() {
    PromptSource prompts = PromptSource.single("Tell me a story.", 1);
    CompletionRequest avoid = new WorkloadPlan(8, 0, true, null, prompts).request(3, 8, 99);
    CompletionRequest reuse = new WorkloadPlan(8, 0, true, null, prompts, dev.llmbench.Workload.PrefixCache.REUSE)
        .request(3, 8, 99);
    assertThat(avoid.prompt()).isEqualTo(Markers.marker(99, 3) + " Tell me a story.");
    assertThat(reuse.prompt()).isEqualTo("Tell me a story.");
  }

  // ----- datasets and drawn lengths

  private static LoadedDataset chat() {
    return dev.llmbench.datasets.DatasetLoader.load(new dev.llmbench.datasets.OpenAiChatReader(),
        Path.of("src/test/resources/datasets/chat.jsonl"), 0, false, 0);
  }

  @Test
  void aDatasetSendsItsRowsFromTheFirstWithTheirLengthsTemperatureAndBodyFields() {
    PromptSource s = PromptSource.dataset(chat(), true, 9);
    CompletionRequest first = s.request(0, 32, true, null);
    assertThat(first.messages()).contains(ChatMessage.user("What is the capital of France?"));
    assertThat(first.maxTokens()).isEqualTo(6);
    assertThat(first.temperature()).isEqualTo(0.0);
    assertThat(s.request(1, 32, true, 0.7).bodyFields()).containsOnlyKeys("tools");
    assertThat(s.request(1, 32, true, 0.7).temperature()).isEqualTo(0.7); // the row has none: the workload's
    assertThat(s.request(3, 32, true, null).maxTokens()).isEqualTo(32);   // the row has no max_tokens
    assertThat(s.request(4, 32, true, null).messages()).isEqualTo(first.messages()); // cycles from the first row
    assertThat(s.row(0)).hasValue(1);
    assertThat(s.row(2)).hasValue(3);
    assertThat(s.requestedOutputTokens(2, 32)).isEqualTo(20);
    // A warm-up that asks for other lengths gets them.
    assertThat(s.request(0, 4, false, true, null).maxTokens()).isEqualTo(4);
    // Without the rows' lengths, the level's.
    assertThat(PromptSource.dataset(chat(), false, 9).request(0, 32, true, null).maxTokens()).isEqualTo(32);
    // The unique prefix keeps the body fields.
    assertThat(Markers.withUniquePrefix(s.request(2, 32, true, null), 1, 2).bodyFields()).containsKey("response_format");
  }

  @Test
  void drawnLengthsAreThoseOfTheSameRequestInEveryShard() {
    PromptSource whole = PromptSource.synthetic(dev.llmbench.internal.workload.LengthDistribution.parse("uniform(10,200)"), 5)
        .withOutputLengths(dev.llmbench.internal.workload.LengthDistribution.parse("uniform(1,64)"));
    PromptSource shard = whole.slice(1, 3); // requests 1, 4, 7, ...
    for (int i = 0; i < 20; i++) {
      CompletionRequest a = whole.request(1 + 3 * i, 16, true, null);
      CompletionRequest b = shard.request(i, 16, true, null);
      assertThat(b.prompt()).isEqualTo(a.prompt());
      assertThat(b.maxTokens()).isEqualTo(a.maxTokens());
      assertThat(a.prompt().split(" ")).hasSize(whole.requestedInputTokens(1 + 3 * i));
      assertThat(a.maxTokens()).isEqualTo(whole.requestedOutputTokens(1 + 3 * i, 16));
    }
    assertThat(java.util.stream.IntStream.range(0, 50).map(whole::requestedInputTokens).distinct().count()).isGreaterThan(30);
  }
}
