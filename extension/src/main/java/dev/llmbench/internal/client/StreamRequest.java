package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * One POST whose answer is read into a {@link RequestTrace}.
 *
 * @param uri                  where to send it
 * @param body                 the JSON body
 * @param headers              headers besides Content-Type and Accept (e.g. Authorization); never printed
 * @param stream               whether an event stream was asked for (sets Accept)
 * @param capture              how much text to keep
 * @param scheduledNanos       when the load generator meant to send it
 * @param promptTokensEstimate the client's estimate of the prompt's tokens
 * @param maxTokens            the {@code max_tokens} the body asks, 0 for none (the server's default)
 * @param ignoreEos            whether the body asks {@code ignore_eos}
 */
@API(status = INTERNAL)
public record StreamRequest(URI uri, byte[] body, Map<String, String> headers, boolean stream, TextCapture capture,
    long scheduledNanos, int promptTokensEstimate, int maxTokens, boolean ignoreEos) {

  public StreamRequest {
    headers = Map.copyOf(headers);
  }

  /** A request whose {@code max_tokens} and {@code ignore_eos} are not known (an embeddings batch, a test's body). */
  public StreamRequest(URI uri, byte[] body, Map<String, String> headers, boolean stream, TextCapture capture,
      long scheduledNanos, int promptTokensEstimate) {
    this(uri, body, headers, stream, capture, scheduledNanos, promptTokensEstimate, 0, false);
  }

  /** A streamed POST meant to go now, with no extra headers, keeping an excerpt of the text. */
  public static StreamRequest of(URI uri, byte[] body) {
    return new StreamRequest(uri, body, Map.of(), true, TextCapture.EXCERPT, System.nanoTime(), 1);
  }

  public StreamRequest withCapture(TextCapture capture) {
    return new StreamRequest(uri, body, headers, stream, capture, scheduledNanos, promptTokensEstimate, maxTokens, ignoreEos);
  }

  public StreamRequest scheduledAt(long nanos) {
    return new StreamRequest(uri, body, headers, stream, capture, nanos, promptTokensEstimate, maxTokens, ignoreEos);
  }

  /** Never shows the body or header values: they can hold the key. */
  @Override
  public String toString() {
    return "StreamRequest[" + uri + ", " + body.length + " bytes, headers " + headers.keySet() + "]";
  }
}
