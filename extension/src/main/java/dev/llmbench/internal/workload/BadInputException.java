package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.file.Path;
import java.util.regex.Pattern;
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

  /**
   * A JSON parser's complaint about one line, without its own position: Jackson's "original" message still says
   * where an object began ({@code start marker at [Source: (String)"..."; line: 1, column: 1]}), and "line: 1" read
   * after the file's "line 5" misleads. The column stays: {@code (opened at column 1)}.
   */
  public static String jsonProblem(JsonProcessingException e) {
    String m = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    return SOURCE.matcher(m).replaceAll(r -> (r.group(1) != null ? "opened at" : "at") + " column " + r.group(2)).strip();
  }

  /** Jackson's position: the source (quoted, possibly with semicolons of its own) then {@code line: L, column: C]}. */
  private static final Pattern SOURCE = Pattern.compile("(start marker )?at \\[Source: .*?; line: \\d+, column: (\\d+)]",
      Pattern.DOTALL);

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
