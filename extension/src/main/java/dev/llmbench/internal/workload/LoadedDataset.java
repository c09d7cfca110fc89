package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The rows of a dataset a sweep sends, in the order it sends them, and how they were chosen.
 *
 * @param file     the file read
 * @param format   its format's name (the reader's {@code format()})
 * @param rows     the rows kept, in sending order
 * @param read     rows of the file read to choose them (all of them for a random sample)
 * @param skipped  rows read but skipped by the format's filter (vLLM's ShareGPT rules), 0 where none applies
 * @param sampling how they were chosen, e.g. {@code first 200} or {@code random 200 of 1000, seed 42}
 * @param warnings what every level that sends them says of them (rows that began with the model's turn)
 */
@API(status = INTERNAL)
public record LoadedDataset(Path file, String format, List<Row> rows, int read, int skipped, String sampling,
    List<String> warnings) {

  public LoadedDataset {
    rows = List.copyOf(rows);
    warnings = List.copyOf(warnings);
    if (rows.isEmpty()) throw new IllegalArgumentException("a dataset needs at least one row");
  }

  /** {@code sharegpt:sharegpt.json}, as a level's {@code prompts} names it. */
  public String name() {
    return format + ":" + file.getFileName();
  }
}
