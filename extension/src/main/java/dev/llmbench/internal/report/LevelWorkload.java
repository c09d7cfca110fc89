package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.workload.LoadedDataset;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.workload.LengthStats;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apiguardian.api.API;

/**
 * What a level's requests asked for and got: the dataset rows it sent (file, how many, their range) and its
 * requested and actual input and output lengths. Requested lengths are recomputed from the plan, request by
 * request (each is a pure function of the seed and its index); actual ones are the server's {@code usage} of
 * the requests that succeeded (the client's estimate where a server sends none).
 *
 * @param prompts         the prompt source's name
 * @param dataset         the dataset, when the level sent one
 * @param rowsSent        distinct rows the level's requests sent
 * @param firstRow        lowest row number sent (1-based, in file order), 0 without a dataset
 * @param lastRow         highest row number sent
 * @param inputSpec       how input lengths were asked for: a distribution, a fixed length, or estimated from text
 * @param outputSpec      how output lengths were asked for
 */
@API(status = INTERNAL)
public record LevelWorkload(String prompts, Optional<LoadedDataset> dataset, int rowsSent, int firstRow, int lastRow,
    String inputSpec, String outputSpec, LengthStats requestedInput, LengthStats actualInput, LengthStats requestedOutput,
    LengthStats actualOutput) {

  /** The level's workload, or empty for a level read back from a file, whose requests cannot be remade. */
  public static Optional<LevelWorkload> of(MeasuredLevel level) {
    PromptSource prompts = level.plan().workload().prompts();
    if (prompts.isRecorded()) return Optional.empty();
    return Optional.of(level.memo().get("workload", () -> compute(level, prompts)));
  }

  private static LevelWorkload compute(MeasuredLevel level, PromptSource prompts) {
    List<RequestMetrics> sent = level.metrics();
    int n = sent.size();
    int maxTokens = level.maxTokens();
    int[] reqIn = IntStream.range(0, n).map(prompts::requestedInputTokens).toArray();
    int[] reqOut = IntStream.range(0, n).map(i -> prompts.requestedOutputTokens(i, maxTokens)).toArray();
    int[] actIn = sent.stream().filter(RequestMetrics::succeeded).mapToInt(RequestMetrics::promptTokens).toArray();
    int[] actOut = sent.stream().filter(RequestMetrics::succeeded).mapToInt(RequestMetrics::outputTokens).toArray();
    int[] inEdges = LengthStats.edges(reqIn, actIn);
    int[] outEdges = LengthStats.edges(reqOut, actOut);
    int rowsSent = 0;
    int firstRow = 0;
    int lastRow = 0;
    if (prompts.dataset().isPresent()) {
      int[] rows = IntStream.range(0, n).map(i -> prompts.row(i).orElse(0)).distinct().sorted().toArray();
      rowsSent = rows.length;
      firstRow = rows.length == 0 ? 0 : rows[0];
      lastRow = rows.length == 0 ? 0 : rows[rows.length - 1];
    }
    String inputSpec = prompts.inputLengths().map(d -> d.spec())
        .orElse(level.inputTokens() > 0 ? Integer.toString(level.inputTokens()) : prompts.dataset().isPresent()
            ? "the rows' text, estimated at 4 characters a token" : "estimated at 4 characters a token");
    String fallback = prompts.outputLengths().map(d -> d.spec()).orElse(Integer.toString(maxTokens));
    String outputSpec = !prompts.usesRowLengths() ? fallback
        : prompts.dataset().get().rows().stream().allMatch(r -> r.outputTokens().isPresent()) ? "the rows' own"
        : "the rows' own, else " + fallback;
    return new LevelWorkload(prompts.name(), prompts.dataset(), rowsSent, firstRow, lastRow, inputSpec, outputSpec,
        LengthStats.of(reqIn, inEdges), LengthStats.of(actIn, inEdges), LengthStats.of(reqOut, outEdges),
        LengthStats.of(actOut, outEdges));
  }

  /** Whether there is more to say than a fixed prompt set: a dataset, or drawn lengths. */
  public boolean isNotable() {
    return dataset.isPresent() || !inputSpec.matches("\\d+|estimated.*") || !outputSpec.matches("\\d+");
  }

  /** One line: {@code sharegpt:sharegpt.json rows 1-40 (40 sent; first 200 of 1000 read); input ...; output ...}. */
  /** The page's row of the dataset rows the level sent, their file, and how they were picked and read. */
  Optional<String> datasetRows() {
    return dataset.map(d -> "rows " + firstRow + "–" + lastRow + " of " + d.file() + " (" + rowsSent + " sent; "
        + d.sampling() + "; " + d.read() + " read)");
  }

  public String describe() {
    StringBuilder s = new StringBuilder(prompts);
    dataset.ifPresent(d -> s.append(" rows ").append(firstRow).append('-').append(lastRow).append(" (").append(rowsSent)
        .append(" sent; ").append(d.sampling()).append(", ").append(d.read()).append(" read)"));
    s.append("; input tokens asked ").append(spec(inputSpec)).append(requestedInput).append(", got ").append(actualInput);
    s.append("; output tokens asked ").append(spec(outputSpec)).append(requestedOutput).append(", got ").append(actualOutput);
    return s.toString();
  }

  /** A distribution's text before its figures; nothing for lengths read from rows or estimated from text. */
  private static String spec(String asked) {
    return asked.startsWith("the rows'") || asked.startsWith("estimated") ? "" : asked + ": ";
  }

  /** The level's JSON {@code llmbench.workload}. */
  public ObjectNode json() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("prompts", prompts);
    dataset.ifPresent(d -> {
      ObjectNode ds = n.putObject("dataset");
      ds.put("file", d.file().toString());
      ds.put("format", d.format());
      ds.put("sampling", d.sampling());
      ds.put("rows_read", d.read());
      ds.put("rows_skipped", d.skipped());
      ds.put("rows_kept", d.rows().size());
      ds.put("rows_sent", rowsSent);
      ds.put("first_row", firstRow);
      ds.put("last_row", lastRow);
    });
    ObjectNode in = n.putObject("input_tokens");
    in.put("requested_as", inputSpec);
    in.set("requested", requestedInput.json());
    in.set("actual", actualInput.json());
    ObjectNode out = n.putObject("output_tokens");
    out.put("requested_as", outputSpec);
    out.set("requested", requestedOutput.json());
    out.set("actual", actualOutput.json());
    return n;
  }


  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s", describe());
  }
}
