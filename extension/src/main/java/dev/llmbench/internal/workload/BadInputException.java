package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A dataset file that cannot be sent as it is: where (file, line, field), what is wrong and what would be
 * accepted, in one sentence, e.g. {@code chat.jsonl line 3, field "max_tokens": -5 is negative; expected a
 * whole number of at least 1}.
 */
@API(status = INTERNAL)
public final class BadInputException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long line;
  private final String field;

  public BadInputException(Path file, long line, String field, String problem, String expected) {
    this(file, line, field, problem, expected, null);
  }

  public BadInputException(Path file, long line, String field, String problem, String expected, Throwable cause) {
    super(file + (line > 0 ? " line " + line : "") + (field == null || field.isEmpty() ? "" : ", field \"" + field + "\"")
        + ": " + problem + (expected == null || expected.isEmpty() ? "" : "; expected " + expected), cause);
    this.file = file;
    this.line = line;
    this.field = field;
  }

  public Path file() {
    return file;
  }

  /** 1-based line of the file, 0 when the problem is the whole file. */
  public long line() {
    return line;
  }

  /** The field at fault, or empty when the row (or file) as a whole is. */
  public String field() {
    return field == null ? "" : field;
  }
}
