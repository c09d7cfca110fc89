package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Why a request failed; failures are counted by kind, never thrown out of a load level. The kinds follow
 * the order in which a request can fail: before it left, before an answer, in the answer. docs/failures.md
 * lists the faults behind each kind, the message the user sees and the setting that bounds it.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ErrorKind {
  /** The connection could not be opened (refused, unknown host, TLS handshake, proxy): the request never left. */
  CONNECTION,
  /**
   * The request was sent, and the connection ended before a status line came: the server may have read it
   * (and done the work). It is never sent again.
   */
  CLOSED_BEFORE_RESPONSE,
  /** The server answered with a status other than 2xx. */
  HTTP_STATUS,
  /** No next byte within {@code llmbench.idle-timeout}, or the whole request took over {@code llmbench.request-timeout}. */
  TIMEOUT,
  /**
   * HTTP 200, then the answer stopped before its end: the connection was reset or closed mid-body, or the body
   * ended without a {@code finish_reason} or {@code [DONE]}. The message says after how many events.
   */
  CUT_STREAM,
  /**
   * HTTP 200 with a body the stream grammar forbids: bytes that are not UTF-8, an event that is not JSON or
   * not an object, a JSON value cut in half, or a Content-Type that is not {@code text/event-stream} or
   * {@code application/json} (or does not match the body).
   */
  CORRUPT_STREAM,
  /** HTTP 200, then the server sent an error object in the body, as vLLM does when generation fails mid-stream. */
  STREAM_ERROR,
  /** HTTP 200 and a well-formed end, but not one token of output. */
  EMPTY_RESPONSE,
  /** Still running when the level's grace period ended, or when the run was stopped. */
  CANCELLED
}
