package dev.llmbench.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.datasets.DatasetLoader;
import dev.llmbench.datasets.OpenAiChatReader;
import dev.llmbench.datasets.VllmCustomReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlReadersTests {

  static final Path DATA = Path.of("src/test/resources/datasets");

  @TempDir
  Path dir;

  @Test
  void openAiChatRowsKeepTheirMessagesLengthsTemperatureToolsAndResponseFormat() {
    LoadedDataset d = DatasetLoader.load(new OpenAiChatReader(), DATA.resolve("chat.jsonl"), 0, false, 0);
    assertThat(d.rows()).hasSize(4);
    Row first = d.rows().get(0);
    assertThat(first.messages()).containsExactly(ChatMessage.system("Answer in one word."),
        ChatMessage.user("What is the capital of France?"));
    assertThat(first.outputTokens()).hasValue(6);
    assertThat(first.temperature()).isEqualTo(0.0);
    assertThat(d.rows().get(1).bodyFields()).containsOnlyKeys("tools");
    assertThat(d.rows().get(1).bodyFields().get("tools")).contains("\"name\":\"get_weather\"");
    Row third = d.rows().get(2);
    assertThat(third.line()).isEqualTo(4); // the blank line 3 is skipped, and counted
    assertThat(third.messages()).containsExactly(ChatMessage.user("List three colours as JSON."));
    assertThat(third.bodyFields()).containsEntry("response_format", "{\"type\":\"json_object\"}");
    assertThat(d.rows().get(3).outputTokens()).isEmpty();
  }

  @Test
  void vllmCustomRowsKeepTheirPromptAndOutputTokens() {
    LoadedDataset d = DatasetLoader.load(new VllmCustomReader(), DATA.resolve("custom.jsonl"), 3, false, 0);
    assertThat(d.rows()).extracting(r -> r.outputTokens().orElse(0)).containsExactly(9, 5, 14);
    assertThat(d.rows().get(1).messages()).containsExactly(ChatMessage.user("Write a limerick about latency."));
    assertThat(d.name()).isEqualTo("vllm-custom:custom.jsonl");
    assertThat(DatasetLoader.load(new VllmCustomReader(), DATA.resolve("custom.jsonl"), 0, false, 0).rows().get(4)
        .outputTokens()).isEmpty();
  }

  @Test
  void aLineThatIsNotJsonNamesTheFileAndLine() {
    assertThatThrownBy(() -> DatasetLoader.load(new OpenAiChatReader(), DATA.resolve("bad/chat-not-json.jsonl"), 0, false, 0))
        .isInstanceOf(BadInputException.class).hasMessageContaining("chat-not-json.jsonl line 3: not JSON")
        .hasMessageContaining("expected one JSON object per line, like {\"messages\"")
        .hasMessageNotContaining("Source: ");
  }

  @Test
  void aRowOfAnotherFormatSaysWhichFormatItLooksLike() {
    assertThatThrownBy(() -> DatasetLoader.load(new OpenAiChatReader(), DATA.resolve("bad/chat-missing-messages.jsonl"), 0,
        false, 0)).isInstanceOf(BadInputException.class)
        .hasMessageContaining("chat-missing-messages.jsonl line 2, field \"messages\": missing (the row has \"prompt\": it "
            + "looks like vLLM custom (format VLLM_CUSTOM))");
    assertThatThrownBy(() -> DatasetLoader.load(new VllmCustomReader(), DATA.resolve("chat.jsonl"), 0, false, 0))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("chat.jsonl line 1, field \"prompt\": missing (the row has \"messages\", \"max_tokens\", "
            + "\"temperature\": it looks like OpenAI chat (format OPENAI_CHAT))");
  }

  @Test
  void aShareGptFileIsNotJsonLines() {
    assertThatThrownBy(() -> DatasetLoader.load(new OpenAiChatReader(), DATA.resolve("sharegpt-small.json"), 0, false, 0))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("sharegpt-small.json line 1: starts a JSON array, so it is not JSON Lines (a ShareGPT file is "
            + "one JSON array: format SHAREGPT)");
  }

  @Test
  void aNegativeLengthNamesTheField() {
    assertThatThrownBy(() -> DatasetLoader.load(new VllmCustomReader(), DATA.resolve("bad/custom-negative-length.jsonl"), 0,
        false, 0)).isInstanceOf(BadInputException.class)
        .hasMessageContaining("custom-negative-length.jsonl line 2, field \"output_tokens\": -5 is negative; expected a whole "
            + "number of at least 1");
  }

  @Test
  void everyBadFieldOfAChatRowIsNamed() throws IOException {
    assertBad("{\"messages\": []}", "field \"messages\": is empty");
    assertBad("{\"messages\": \"hi\"}", "field \"messages\": is a string");
    assertBad("{\"messages\": [{\"role\": \"user\"}]}", "field \"messages[0].content\": missing");
    assertBad("{\"messages\": [{\"content\": \"hi\"}]}", "field \"messages[0].role\": missing");
    assertBad("{\"messages\": [{\"role\": \"robot\", \"content\": \"hi\"}]}", "\"robot\" is not a chat role");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"max_tokens\": 0}", "field \"max_tokens\": 0 is zero");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"max_tokens\": \"many\"}",
        "field \"max_tokens\": is a string");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"max_tokens\": 2.5}", "field \"max_tokens\": is a number 2.5");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"temperature\": -1}", "field \"temperature\": -1 is negative");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"tools\": {}}", "field \"tools\": is an object");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"response_format\": \"json\"}",
        "field \"response_format\": is a string");
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"image_url\"}]}]}",
        "field \"messages[0].content[0]\": is not a text part");
    assertBad("[1, 2]", "line 1: starts a JSON array");
    assertBad("42", "line 1: is a number, not a JSON object");
  }

  @Test
  void anEmptyFileIsAnError() {
    assertThatThrownBy(() -> DatasetLoader.load(new VllmCustomReader(), DATA.resolve("bad/empty.jsonl"), 0, false, 0))
        .isInstanceOf(BadInputException.class).hasMessageContaining("empty.jsonl: holds no rows; expected at least one row like "
            + "{\"prompt\"");
  }

  private void assertBad(String line, String message) throws IOException {
    Path file = Files.writeString(dir.resolve("row.jsonl"), line + "\n");
    assertThatThrownBy(() -> DatasetLoader.load(new OpenAiChatReader(), file, 0, false, 0)).as(line)
        .isInstanceOf(BadInputException.class).hasMessageContaining("row.jsonl line 1").hasMessageContaining(message);
  }
}
