package dev.llmbench.datasets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.internal.workload.BadInputException;
import dev.llmbench.internal.workload.JsonFields;
import dev.llmbench.internal.workload.Row;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A JSON Lines format: one JSON object per line, blank lines skipped, read a line at a time. */
abstract class JsonlReader implements DatasetReader {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The row of {@code node}, the {@code number}-th of the file. */
  abstract Row row(JsonNode node, int number, long line, JsonFields fields);

  @Override
  public final void read(Path file, RowSink sink) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String text;
      long line = 0;
      int number = 0;
      while ((text = in.readLine()) != null) {
        line++;
        String stripped = text.strip();
        if (stripped.isEmpty()) continue;
        if (number == 0 && stripped.startsWith("[")) {
          throw new BadInputException(file, line, "", "starts a JSON array, so it is not JSON Lines" + (stripped.contains(
              "conversations") || stripped.equals("[") ? " (a ShareGPT file is one JSON array: format SHAREGPT)" : ""),
              "one JSON object per line, like " + rowShape());
        }
        JsonNode node;
        try {
          node = JSON.readTree(stripped);
        } catch (JsonProcessingException e) {
          // Jackson's own message ends with its source position; the file and line say more.
          throw new BadInputException(file, line, "", "not JSON (" + e.getOriginalMessage() + ")",
              "one JSON object per line, like " + rowShape(), e);
        }
        if (!node.isObject()) {
          throw new BadInputException(file, line, "", "is " + JsonFields.kind(node) + ", not a JSON object",
              "one JSON object per line, like " + rowShape());
        }
        number++;
        if (!sink.accept(row(node, number, line, new JsonFields(file, line, rowShape())))) return;
      }
    }
  }
}
