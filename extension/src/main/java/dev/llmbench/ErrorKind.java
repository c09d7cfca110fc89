package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Why a request failed; failures are counted by kind, never thrown out of a load level. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ErrorKind {
  /** The server answered with a status other than 200. */
  HTTP_STATUS,
  /** No answer, or no next byte, within the configured timeout. */
  TIMEOUT,
  /** The stream ended early or carried something that is not the OpenAI event format. */
  BROKEN_STREAM,
  /** The connection could not be made or was reset. */
  CONNECTION,
  /** HTTP 200, but not one chunk of output. */
  EMPTY_RESPONSE,
  /** Still running when a duration-bounded level's grace period ended. */
  CANCELLED
}
