package dev.llmbench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.engine.OpenAiResponses.ErrorReplyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The embedded engine's {@code POST /v1/embeddings}: {@code input} a string or an array of strings; each gets a unit
 * vector drawn from its text's hash (the same text, the same vector), after one pooling pass over all the batch's
 * tokens timed as a prefill step of the profile.
 */
final class EmbeddingReplies {

  /** Dimensions of the embedded engine's vectors. */
  static final int DIMENSIONS = 32;

  private final PerformanceProfile profile;
  private final double slowdown;
  private final OpenAiResponses responses;
  /** One pooling pass at a time, as on one GPU: concurrent embeddings requests queue for it. */
  private final Object device = new Object();

  EmbeddingReplies(PerformanceProfile profile, double slowdown, OpenAiResponses responses) {
    this.profile = profile;
    this.slowdown = slowdown;
    this.responses = responses;
  }

  /** Embeds the request's inputs and answers them. */
  void embed(Exchange ex) throws IOException, ErrorReplyException {
    JsonNode body = OpenAiResponses.jsonBody(ex);
    JsonNode input = body == null ? null : body.get("input");
    List<String> inputs = new ArrayList<>();
    if (input != null && input.isTextual()) {
      inputs.add(input.asText());
    } else if (input != null && input.isArray()) {
      for (JsonNode i : input) {
        if (!i.isTextual()) {
          throw new ErrorReplyException(400, "'input' must be a string or an array of strings",
              OpenAiResponses.INVALID_REQUEST);
        }
        inputs.add(i.asText());
      }
    }
    if (inputs.isEmpty()) {
      throw new ErrorReplyException(400, "'input' must be a non-empty string or array of strings",
          OpenAiResponses.INVALID_REQUEST);
    }
    long tokens = 0;
    for (String i : inputs) tokens += TextModel.countTokens(i);
    long nanos = Math.round(profile.stepTime(inputs.size(), tokens).toNanos() * slowdown);
    synchronized (device) {
      long until = System.nanoTime() + nanos;
      for (long left = nanos; left > 0; left = until - System.nanoTime()) LockSupport.parkNanos(left);
    }
    List<double[]> vectors = new ArrayList<>(inputs.size());
    for (String i : inputs) vectors.add(vector(i));
    OpenAiResponses.send(ex, 200, responses.embeddings(vectors, tokens));
  }

  /** A unit vector of {@value #DIMENSIONS} numbers drawn from the text's hash. */
  static double[] vector(String text) {
    SplittableRandom random = new SplittableRandom(text.hashCode() * 0x9E3779B97F4A7C15L);
    double[] v = new double[DIMENSIONS];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = random.nextDouble(-1, 1);
      norm += v[i] * v[i];
    }
    norm = Math.sqrt(norm);
    for (int i = 0; i < v.length; i++) v[i] /= norm;
    return v;
  }
}
