package dev.llmbench.engine;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** One request inside the embedded engine: what it will say and where its chunks go. */
final class Sequence {

  /** What the scheduler hands the HTTP side: a chunk of text, or the end. */
  record Event(String text, boolean reasoning, boolean admitted, String finishReason, List<String> tokens, int position) {
    static final Event ADMITTED = new Event("", false, true, null);

    Event(String text, boolean reasoning, boolean admitted, String finishReason) {
      this(text, reasoning, admitted, finishReason, List.of(), 0);
    }

    boolean isEnd() {
      return finishReason != null;
    }
  }

  final int promptTokens;
  /** Chained hashes of the prompt's full blocks, for the prefix cache. */
  final long[] blockHashes;
  /** Prompt tokens the prefix cache served: set by the scheduler at admission, before the first event. */
  volatile int cachedTokens;
  /** When the request reached the server: an idle engine's first step starts from here. */
  final long arrivalNanos;
  final int maxTokens;
  final boolean ignoreEos;
  final int reasoningBudget;
  private final List<String> answer;
  private final SplittableRandom random;
  final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

  private int generated;
  private int reasoningGenerated;
  private volatile boolean cancelled;

  Sequence(long arrivalNanos, int promptTokens, long[] blockHashes, int maxTokens, boolean ignoreEos,
      int reasoningBudget, List<String> answer, long seed) {
    this.arrivalNanos = arrivalNanos;
    this.promptTokens = promptTokens;
    this.blockHashes = blockHashes;
    this.maxTokens = maxTokens;
    this.ignoreEos = ignoreEos;
    this.reasoningBudget = reasoningBudget;
    this.answer = answer;
    this.random = new SplittableRandom(seed);
  }

  /** Where a step's tokens are counted, before they are sent. */
  interface Counter {
    void tokens(int generated, boolean finished);
  }

  /** Generates up to {@code tokens} tokens as one chunk; returns true when the sequence has finished. */
  boolean step(int tokens, Counter counted) {
    StringBuilder text = new StringBuilder();
    List<String> chunkTokens = new java.util.ArrayList<>(tokens);
    int position = generated - reasoningGenerated;
    boolean reasoning = reasoningGenerated < reasoningBudget;
    int emitted = 0;
    String finish = null;
    while (emitted < tokens) {
      boolean thisIsReasoning = reasoningGenerated < reasoningBudget;
      if (thisIsReasoning != reasoning) break; // reasoning and content never share a chunk
      int contentIndex = generated - reasoningGenerated;
      if (!thisIsReasoning && contentIndex >= answer.size() && !ignoreEos) {
        finish = "stop";
        break;
      }
      String token = thisIsReasoning ? TextModel.filler(random, true)
          : contentIndex < answer.size() ? answer.get(contentIndex) : TextModel.filler(random, false);
      text.append(token);
      if (!thisIsReasoning) chunkTokens.add(token);
      generated++;
      if (thisIsReasoning) reasoningGenerated++;
      emitted++;
      if (generated >= maxTokens) {
        finish = "length";
        break;
      }
    }
    if (finish == null && !reasoning && !ignoreEos && generated - reasoningGenerated >= answer.size()) {
      finish = "stop";
    }
    // Counted before the client can see it: a client that scrapes /metrics right after its last token must
    // find that token, and the finished request, already counted.
    counted.tokens(emitted, finish != null);
    if (emitted > 0) events.add(new Event(text.toString(), reasoning, false, null, chunkTokens, position));
    if (finish != null) events.add(new Event("", false, false, finish));
    return finish != null;
  }

  int generated() {
    return generated;
  }

  int reasoningGenerated() {
    return reasoningGenerated;
  }

  void cancel() {
    cancelled = true;
  }

  boolean isCancelled() {
    return cancelled;
  }
}
