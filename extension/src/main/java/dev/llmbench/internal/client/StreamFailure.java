package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.RequestFailure;
import org.apiguardian.api.API;

/**
 * Why one request failed, finer than {@link ErrorKind}: a stream cut after some events is not a connection
 * that never opened, and a corrupt stream is not a timeout.
 *
 * @param cause   what happened
 * @param status  HTTP status, or 0 when no status line came
 * @param message one line naming the cause, without per-response ids, so that equal failures group
 */
@API(status = INTERNAL)
public record StreamFailure(Cause cause, int status, String message) {

  /** What happened, in the order a request can fail; each is counted under one {@link ErrorKind}. */
  public enum Cause {
    /** The connection could not be opened; the request never left. */
    CONNECT_FAILED(ErrorKind.CONNECTION),
    /** The request was sent (the server may have read it) and the connection ended before a status line. */
    CLOSED_BEFORE_RESPONSE(ErrorKind.CLOSED_BEFORE_RESPONSE),
    /** The server answered with a status other than 2xx. */
    HTTP_STATUS(ErrorKind.HTTP_STATUS),
    /** A 200 whose body is neither an event stream nor JSON (per its Content-Type), or does not match it. */
    UNEXPECTED_CONTENT_TYPE(ErrorKind.CORRUPT_STREAM),
    /** The connection failed or closed after the status line, before the body's end. */
    CUT_MID_STREAM(ErrorKind.CUT_STREAM),
    /** The body ended cleanly but without a finish_reason or [DONE]. */
    NO_FINISH(ErrorKind.CUT_STREAM),
    /** Bytes that are not UTF-8. */
    INVALID_UTF8(ErrorKind.CORRUPT_STREAM),
    /** Data that is not the OpenAI event format: not JSON, not an object, an event cut in half. */
    MALFORMED(ErrorKind.CORRUPT_STREAM),
    /** The server sent an error object in the body of a 200. */
    SERVER_ERROR(ErrorKind.STREAM_ERROR),
    /** A 200 that ended as it should but carried no output. */
    EMPTY(ErrorKind.EMPTY_RESPONSE),
    /** No byte for longer than the idle timeout. */
    IDLE_TIMEOUT(ErrorKind.TIMEOUT),
    /** The whole request took longer than the request timeout. */
    REQUEST_TIMEOUT(ErrorKind.TIMEOUT),
    /** Cancelled by the caller (a level's grace period ended, the run was stopped). */
    CANCELLED(ErrorKind.CANCELLED);

    private final ErrorKind kind;

    Cause(ErrorKind kind) {
      this.kind = kind;
    }

    /** The first cause counted under {@code kind}, for a failure known only by its kind. */
    public static Cause of(ErrorKind kind) {
      for (Cause c : values()) if (c.kind == kind) return c;
      throw new IllegalArgumentException(kind.name());
    }

    /** The API's kind this cause is counted under. */
    public ErrorKind kind() {
      return kind;
    }
  }

  public RequestFailure toRequestFailure() {
    return new RequestFailure(cause.kind(), status, message);
  }
}
