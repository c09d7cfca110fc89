package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.workload.BadInputException;
import dev.llmbench.internal.workload.Row;
import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Reads one dataset format, streaming: rows go to the sink one at a time, in file order, until the file
 * ends or the sink wants no more, so a file of any size is read in the memory of the rows kept. A trace
 * reader or a session workload implements the same interface.
 */
interface DatasetReader {

  /** The format's name as users write it and reports show it, e.g. {@code sharegpt}. */
  String format();

  /** What one row of this format looks like, for messages: {@code {"prompt": "...", "output_tokens": 128}}. */
  String rowShape();

  /**
   * Reads {@code file}, handing each row to {@code sink} until it returns false.
   *
   * @throws BadInputException at the first row (or file) that is not of this format, naming its line and field
   * @throws IOException       when the file cannot be read
   */
  void read(Path file, RowSink sink) throws IOException;

  /** Takes rows as they are read; {@code false} stops the reading. */
  @FunctionalInterface
  interface RowSink {
    boolean accept(Row row);
  }
}
