package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestResult;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.trace.Trace;
import dev.llmbench.workload.ExactInputTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * A Mooncake-style trace on llama-server (4 slots, started by {@code scripts/real-engine.sh}) with its blocks
 * aligned through the server's {@code /apply-template} and {@code /tokenize}: 8 rows of 3 blocks of 64 tokens,
 * input_length 192 down to 150, so each row's {@code usage.prompt_tokens} is checked against its own length.
 * Rows sharing their first two hash_ids share those 128 tokens byte for byte, which the server's cache counter
 * ({@code llamacpp:prompt_tokens_cached_total}) finds; rows with distinct ids share only the template's start
 * and the lead word.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
class LlamaServerTraceTest {

  static final Path DIR = Path.of("target", "real-engine-traces");
  static final int ROWS = 8;

  @BeforeAll
  static void traces() throws IOException {
    Files.createDirectories(DIR);
    List<String> shared = new ArrayList<>();
    List<String> distinct = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      String head = "{\"timestamp\": " + 100 * i + ", \"input_length\": " + length(i) + ", \"output_length\": 4, \"hash_ids\": [";
      shared.add(head + "1, 2, " + (100 + i) + "]}");
      distinct.add(head + (3 * i) + ", " + (3 * i + 1) + ", " + (3 * i + 2) + "]}");
    }
    Files.write(DIR.resolve("shared.jsonl"), shared);
    Files.write(DIR.resolve("distinct.jsonl"), distinct);
  }

  static int length(int row) {
    return 192 - 6 * row;
  }

  /** Checks every row's length and returns the level's cache use; {@code template[0]} gets what the server adds to each. */
  static PrefixCacheUse exactRows(SweepLevelResult level, int[] template) {
    assertThat(level).hasNoErrors();
    InputAlignment a = level.inputAlignment().orElseThrow();
    PrefixCacheUse use = level.prefixCache().orElseThrow();
    System.out.printf("%s | %s; template and lead word %d tokens | %s cached %d of %d prompt tokens (%.1f%%)%n", level.label(),
        a.describe(), a.templateTokens(), use.source(), use.cachedTokens(), use.promptTokens(), use.hitRate() * 100);
    template[0] = a.templateTokens();
    assertThat(a.method()).isEqualTo("llama-server POST /apply-template + POST /tokenize");
    assertThat(a.checkedRequests()).isEqualTo(ROWS);
    assertThat(a.largestDeviation()).as("every row exactly its input_length").hasValue(0);
    List<Integer> lengths = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) lengths.add(length(i));
    assertThat(level.requests()).extracting(RequestResult::promptTokens).containsExactlyInAnyOrderElementsOf(lengths);
    assertThat(use.source()).isEqualTo("llamacpp:prompt_tokens_cached_total");
    return use;
  }

  @Nested
  @Trace(value = "target/real-engine-traces/shared.jsonl", blockSize = 64)
  @ExactInputTokens
  class SharedBlocks {
    @ConcurrencySweep(1)
    void equalHashIdsComeFromTheCache(SweepLevelResult level) {
      int[] template = new int[1];
      PrefixCacheUse use = exactRows(level, template);
      // One request at a time: every row after the first finds the two 64-token blocks it shares, and at most what
      // the template puts before the text beside them (its third block is its own).
      assertThat(use.cachedTokens()).isBetween((ROWS - 1) * 128L, (ROWS - 1) * 128L + (long) ROWS * template[0]);
    }
  }

  @Nested
  @Trace(value = "target/real-engine-traces/distinct.jsonl", blockSize = 64)
  @ExactInputTokens
  class DistinctBlocks {
    @ConcurrencySweep(1)
    void distinctHashIdsShareOnlyTheTemplate(SweepLevelResult level) {
      int[] template = new int[1];
      PrefixCacheUse use = exactRows(level, template);
      // Nothing of the blocks: at most the start of the template and the lead word, request by request.
      assertThat(use.cachedTokens()).isLessThanOrEqualTo((long) ROWS * template[0]);
    }
  }
}
