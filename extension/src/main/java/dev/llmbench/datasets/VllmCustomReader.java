package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.JsonFields;
import dev.llmbench.internal.workload.Row;
import dev.llmbench.internal.workload.TokenEstimate;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code vllm bench serve --dataset-name custom}: JSON Lines of {@code {"prompt": "...", "output_tokens": 128}},
 * {@code output_tokens} optional (vLLM's {@code --custom-output-len -1} reads it; otherwise the workload's length).
 */
final class VllmCustomReader extends JsonlReader {

  @Override
  public String format() {
    return "vllm-custom";
  }

  @Override
  public String rowShape() {
    return "{\"prompt\": \"...\", \"output_tokens\": 128} (output_tokens optional)";
  }

  @Override
  Row row(JsonNode node, int number, long line, JsonFields fields) {
    String prompt = fields.text(node, "prompt", "prompt");
    if (prompt.isBlank()) throw fields.bad("prompt", "is empty", "the prompt's text");
    return new Row(number, line, List.of(ChatMessage.user(prompt)), TokenEstimate.of(prompt),
        fields.positiveInt(node, "output_tokens"), null, Map.of());
  }
}
