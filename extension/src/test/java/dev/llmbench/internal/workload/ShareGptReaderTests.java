package dev.llmbench.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.datasets.DatasetLoader;
import dev.llmbench.datasets.ShareGptReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShareGptReaderTests {

  static final Path SMALL = Path.of("src/test/resources/datasets/sharegpt-small.json");

  @TempDir
  Path dir;

  @Test
  void theFirstHumanTurnIsThePromptAndTheReplyAfterItTheOutputLength() {
    LoadedDataset d = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), SMALL, 0, false, 0);
    // a2 has one turn and a4's prompt ("Hi") is under vLLM's 4 tokens: skipped, as vLLM skips them.
    assertThat(d.rows()).extracting(Row::number).containsExactly(1, 3, 5, 6);
    assertThat(d.read()).isEqualTo(6);
    assertThat(d.skipped()).isEqualTo(2);
    assertThat(d.sampling()).contains("1 with fewer than two turns, 1 outside the length filter");
    Row third = d.rows().get(1);
    assertThat(third.messages()).containsExactly(ChatMessage.user("Give me three tips for writing readable Java code."));
    String reply = "Name things for what they mean, keep methods short enough to read at a glance, and let types carry units "
        + "and invariants.";
    assertThat(third.outputTokens()).hasValue((reply.length() + 3) / 4);
    assertThat(third.inputTokens()).isEqualTo(("Give me three tips for writing readable Java code.".length() + 3) / 4);
    assertThat(third.line()).isEqualTo(7); // where the conversation's object starts
  }

  @Test
  void withoutTheFilterEveryConversationWithAReplyIsKept() {
    LoadedDataset d = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.NONE), SMALL, 0, false, 0);
    assertThat(d.rows()).extracting(Row::number).containsExactly(1, 3, 4, 5, 6);
  }

  @Test
  void aPromptOverTheBoundIsSkippedAsVllmSkipsIt() throws IOException {
    String longPrompt = "word ".repeat(1200); // 6,000 characters: 1,500 tokens, over vLLM's 1,024
    Path file = Files.writeString(dir.resolve("long.json"), "[{\"conversations\": [{\"from\": \"human\", \"value\": \""
        + longPrompt + "\"}, {\"from\": \"gpt\", \"value\": \"A reply long enough.\"}]},\n {\"conversations\": [{\"from\": "
        + "\"human\", \"value\": \"A short enough question?\"}, {\"from\": \"gpt\", \"value\": \"A reply long enough.\"}]}]");
    LoadedDataset d = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 0, false, 0);
    assertThat(d.rows()).extracting(Row::number).containsExactly(2);
  }

  @Test
  void readingStopsAtTheRowLimitWithoutReadingTheRest() throws IOException {
    // Everything after the second conversation is not even JSON: a limit of 2 never reads it.
    Path file = Files.writeString(dir.resolve("head.json"), "[{\"conversations\": [{\"from\": \"human\", \"value\": \"First "
        + "question here?\"}, {\"from\": \"gpt\", \"value\": \"First answer here.\"}]},\n{\"conversations\": [{\"from\": "
        + "\"human\", \"value\": \"Second question here?\"}, {\"from\": \"gpt\", \"value\": \"Second answer here.\"}]},\n"
        + "this is not JSON at all");
    LoadedDataset d = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 2, false, 0);
    assertThat(d.rows()).hasSize(2);
    assertThat(d.sampling()).isEqualTo("first 2");
  }

  @Test
  void aLargeFileIsStreamedOneConversationAtATime() throws IOException {
    // 40,000 conversations (about 6 MB): the reader's memory is the rows it keeps, and a limit keeps few.
    Path file = dir.resolve("large.json");
    try (var out = Files.newBufferedWriter(file)) {
      out.write("[");
      for (int i = 0; i < 40_000; i++) {
        out.write((i == 0 ? "" : ",\n") + "{\"conversations\": [{\"from\": \"human\", \"value\": \"Question number " + i
            + " about something long enough to keep?\"}, {\"from\": \"gpt\", \"value\": \"An answer to question " + i
            + " that is long enough as well.\"}]}");
      }
      out.write("]");
    }
    List<Row> all = new ArrayList<>();
    new ShareGptReader(ShareGptReader.Filter.VLLM).read(file, r -> all.add(r) || true);
    assertThat(all).hasSize(40_000);
    assertThat(all.get(39_999).line()).isEqualTo(40_000);
    LoadedDataset sample = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 100, true, 7);
    assertThat(sample.rows()).hasSize(100);
    assertThat(sample.read()).isEqualTo(40_000);
    // A uniform sample of 100 of 40,000 rows reaches well into the file, and the same seed draws the same rows.
    assertThat(sample.rows().stream().mapToInt(Row::number).max().orElseThrow()).isGreaterThan(30_000);
    assertThat(DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 100, true, 7).rows())
        .extracting(Row::number).isEqualTo(sample.rows().stream().map(Row::number).toList());
    assertThat(DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 100, true, 8).rows())
        .extracting(Row::number).isNotEqualTo(sample.rows().stream().map(Row::number).toList());
  }

  @Test
  void aTurnWithoutValueNamesTheLineAndField() {
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM),
        Path.of("src/test/resources/datasets/bad/sharegpt-missing-value.json"), 0, false, 0))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("sharegpt-missing-value.json line 3, field \"conversations[0].value\": missing")
        .hasMessageContaining("the row has \"from\", \"text\"");
  }

  @Test
  void aJsonLinesFileIsNotShareGpt() {
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM),
        Path.of("src/test/resources/datasets/chat.jsonl"), 0, false, 0))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("chat.jsonl line 1: is not a JSON array (it starts with an object: JSON Lines are format "
            + "OPENAI_CHAT or VLLM_CUSTOM)")
        .hasMessageContaining("expected a ShareGPT file: [{\"conversations\"");
  }

  @Test
  void anEmptyFileAndABlankOneAreErrors() throws IOException {
    Path empty = Files.writeString(dir.resolve("empty.json"), "");
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), empty, 0, false, 0))
        .isInstanceOf(BadInputException.class).hasMessageContaining("empty.json: is empty");
    Path noRows = Files.writeString(dir.resolve("none.json"), "[]");
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), noRows, 0, false, 0))
        .isInstanceOf(BadInputException.class).hasMessageContaining("none.json: holds no rows");
  }

  @Test
  void aFileWhoseEveryRowIsSkippedSaysWhy() throws IOException {
    Path file = Files.writeString(dir.resolve("short.json"), "[{\"conversations\": [{\"from\": \"human\", \"value\": \"Hi\"}, "
        + "{\"from\": \"gpt\", \"value\": \"Hello\"}]}]");
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 0, false, 0))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("all 1 rows were skipped (1 outside the length filter");
  }

  @Test
  void brokenJsonNamesItsLine() throws IOException {
    Path file = Files.writeString(dir.resolve("broken.json"), "[\n{\"conversations\": [{\"from\": \"human\", \"value\": "
        + "\"a fine question?\"}, {\"from\": \"gpt\", \"value\": \"a fine answer.\"}]},\n{\"conversations\": [}\n]");
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 0, false, 0))
        .isInstanceOf(BadInputException.class).hasMessageContaining("broken.json line 3: not JSON");
  }

  @Test
  void aMissingFileSaysWhereItWasLookedFor() {
    assertThatThrownBy(() -> DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), Path.of("nowhere.json"), 0,
        false, 0)).isInstanceOf(BadInputException.class).hasMessageContaining("nowhere.json: no such file");
  }
}
