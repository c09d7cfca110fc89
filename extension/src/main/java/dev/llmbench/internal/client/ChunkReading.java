package dev.llmbench.internal.client;

/**
 * What the chunk {@link ChunkJsonReader} is reading carried, as far as {@link StreamRecorder} needs it: filled
 * token by token, recorded only when the chunk ends as one whole JSON object, forgotten when the next starts.
 * Reused from chunk to chunk, so that reading one allocates nothing. Not thread-safe.
 */
final class ChunkReading {

  /** Whether it had a first {@code choices} element (later ones are not read). */
  boolean choice;
  /** {@link TokenChunks#CONTENT} and/or {@link TokenChunks#REASONING}: what of the choice was output. */
  int kind;
  int contentChars;
  int reasoningChars;
  String finishReason;
  /** Whether it carried {@code usage}; its counts are -1 where absent. */
  boolean usage;
  int promptTokens;
  int completionTokens;
  int reasoningTokens;
  int cachedTokens;
  /** Its {@code object} was {@code "error"}. */
  boolean objectIsError;
  String errorMessage;
  /** It carried something else that counts (timings, a tool call's fields): not plain text. */
  boolean otherFields;
  /** It carried a tool call's name or arguments. */
  boolean toolCall;
  /** Elements of an embeddings answer's {@code data}. */
  int embeddings;
  /** Non-empty content or reasoning strings in it. */
  int textStrings;

  /** A new chunk starts: nothing of the last one counts. */
  void reset() {
    choice = false;
    kind = 0;
    contentChars = 0;
    reasoningChars = 0;
    finishReason = null;
    usage = false;
    objectIsError = false;
    errorMessage = null;
    otherFields = false;
    toolCall = false;
    embeddings = 0;
    textStrings = 0;
  }

  /** It carries {@code usage}: each count absent until read. */
  void usage() {
    usage = true;
    promptTokens = -1;
    completionTokens = -1;
    reasoningTokens = -1;
    cachedTokens = -1;
  }

  /** Hands what it carried to the recorder, as one event that arrived at {@code arrivalNanos}. */
  void recordTo(StreamRecorder recorder, long arrivalNanos) {
    recorder.event();
    if (choice) {
      recorder.choice(arrivalNanos, kind, toolCall);
      recorder.chars(contentChars, reasoningChars);
    }
    if (embeddings > 0) recorder.embeddings(embeddings);
    if (finishReason != null) recorder.finishReason(finishReason);
    if (usage) recorder.usage(promptTokens, completionTokens, reasoningTokens, cachedTokens);
    if (usage && choice && kind != 0) recorder.chunkUsage(completionTokens);
    if (errorMessage != null) {
      recorder.serverError(errorMessage);
    } else if (objectIsError) {
      recorder.serverError("(no message)");
    }
  }

  /** Whether it was plain: one non-empty content or reasoning string and nothing else that counts. */
  boolean plainText() {
    return textStrings == 1 && choice && finishReason == null && !usage && errorMessage == null && !objectIsError
        && !otherFields;
  }
}
