package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * How the embedded engine can misbehave on one generation request, each the way a real server or proxy does.
 * The first six act before any response; the rest act inside a streamed response and apply to streaming
 * requests only (a non-streaming request that draws one is answered normally, and nothing is counted).
 * Mid-stream faults act after {@link EventStream#FAULT_AFTER_EVENTS} events, or before the finish event if
 * the stream is shorter.
 */
@API(status = INTERNAL)
public enum FaultKind {
  /** HTTP 500 with an OpenAI-style JSON error body. */
  HTTP500("http500", true),
  /** HTTP 429 with {@code Retry-After: 1} and an OpenAI-style {@code rate_limit_error} body. */
  HTTP429("http429", true),
  /** HTTP 503 with a JSON error body, as an overloaded server answers. */
  HTTP503("http503", true),
  /** HTTP 502 with an HTML body, as a proxy (nginx) answers when its upstream fails. */
  HTML("html", true),
  /** Reads the whole request, then closes the connection (FIN) before any status line. */
  DROP("drop", true),
  /** Reads the whole request and never answers; the connection stays open until the client closes it. */
  SILENT("silent", true),
  /** Streams some events, then resets the connection (RST, by SO_LINGER 0). */
  RESET("reset", false),
  /** Streams some events, then closes the connection (FIN) without the last chunk, finish_reason or [DONE]. */
  CUT("cut", false),
  /** Streams some events, then sends nothing more while keeping the connection open. */
  STALL("stall", false),
  /** Adds one event whose data is not JSON (a truncated chunk), then goes on normally. */
  BADJSON("badjson", false),
  /** Puts invalid UTF-8 bytes (a truncated 3-byte sequence) inside the JSON string of one content delta. */
  BADUTF8("badutf8", false),
  /** Makes one content delta a single 5 MiB data line. */
  LONGLINE("longline", false),
  /** Sends the whole stream with CRLF line endings and {@code : comment} lines: legal SSE, must succeed. */
  CRLF("crlf", false),
  /** Sends a valid SSE stream under {@code Content-Type: application/json}. */
  JSONTYPE("jsontype", false),
  /** Sends the finish_reason chunk and the usage chunk, ends the body properly, but never {@code data: [DONE]}. */
  NODONE("nodone", false),
  /** Sends a {@code data: {"error": {...}}} event mid-stream, then {@code [DONE]}, as vLLM does when generation fails. */
  MIDSTREAMERROR("midstreamerror", false);

  private final String spec;
  private final boolean beforeResponse;

  FaultKind(String spec, boolean beforeResponse) {
    this.spec = spec;
    this.beforeResponse = beforeResponse;
  }

  /** The name used in fault specs and metric labels, e.g. {@code http500}. */
  public String spec() {
    return spec;
  }

  /** Whether it acts instead of a response (and so applies to streaming and non-streaming requests alike). */
  public boolean beforeResponse() {
    return beforeResponse;
  }

  public static Optional<FaultKind> bySpec(String spec) {
    String s = spec.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(k -> k.spec.equals(s)).findFirst();
  }

  /** Every spec name, comma-separated, for error messages. */
  public static String accepted() {
    return Arrays.stream(values()).map(FaultKind::spec).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return spec;
  }
}
