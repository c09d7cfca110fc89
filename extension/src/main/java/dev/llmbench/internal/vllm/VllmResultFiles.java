package dev.llmbench.internal.vllm;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.llmbench.LoadShape;
import dev.llmbench.Rate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The files {@code vllm bench serve --save-result} writes, as the baseline and the offline analysis both
 * read them: one JSON object per run, in a file of its own, a line of an {@code --append-result} file, or
 * an element of {@code vllm bench sweep}'s {@code summary.json}.
 */
@API(status = INTERNAL)
public final class VllmResultFiles {

  /**
   * Fails on a second value, so that JSON Lines are not read as their first line alone; takes the
   * {@code Infinity} Python's {@code json} writes for an unbounded rate.
   */
  private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final Pattern CONCURRENCY_IN_NAME = Pattern.compile("-concurrency(\\d+)-");

  private VllmResultFiles() {}

  /** Whether {@code node} looks like a {@code vllm bench serve} result (and not a level LLMBench wrote). */
  public static boolean isResult(JsonNode node) {
    return node.isObject() && node.has("duration") && node.has("completed") && !node.has("llmbench");
  }

  /**
   * Every JSON object in {@code file}: one object, an array of them, or one per line.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read or is neither JSON nor JSON Lines
   */
  public static List<JsonNode> objects(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
    List<JsonNode> out = new ArrayList<>();
    try {
      JsonNode whole = JSON.readTree(text);
      if (whole.isArray()) whole.forEach(out::add);
      else if (whole != null && !whole.isMissingNode()) out.add(whole);
    } catch (JsonProcessingException e) {
      for (String line : text.split("\\R")) {
        if (line.isBlank()) continue;
        try {
          out.add(JSON.readTree(line));
        } catch (JsonProcessingException lineError) {
          throw new IllegalArgumentException(file + " is neither JSON nor JSON Lines: " + lineError.getOriginalMessage(), e);
        }
      }
    }
    return out;
  }

  /**
   * The run's load: a closed loop of {@code max_concurrency} (or of the {@code -concurrencyN-} in the file's
   * name) at an infinite {@code request_rate}, an open loop at a finite one; empty for an infinite rate
   * without a cap, which sent every prompt at once.
   */
  public static Optional<LoadShape> load(JsonNode run, Path file) {
    JsonNode rate = run.path("request_rate");
    boolean infinite = rate.isMissingNode() || rate.isNull() || rate.isTextual() && rate.asText().startsWith("inf")
        || rate.isNumber() && Double.isInfinite(rate.asDouble());
    OptionalInt cap = run.path("max_concurrency").isNumber() ? OptionalInt.of(run.path("max_concurrency").asInt())
        : concurrencyInName(file);
    if (!infinite) {
      return Optional.of(new LoadShape.OpenLoop(Rate.requestsPerSecond(rate.asDouble()), run.path("burstiness").asDouble(1.0), cap));
    }
    return cap.isPresent() ? Optional.of(new LoadShape.ClosedLoop(cap.getAsInt())) : Optional.empty();
  }

  private static OptionalInt concurrencyInName(Path file) {
    Matcher m = CONCURRENCY_IN_NAME.matcher(file.getFileName().toString());
    return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
  }
}
