package dev.llmbench.internal.client;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * When a reply's token chunks came, in arrival order, and what each carried: one {@link System#nanoTime()} value a
 * chunk (8 bytes) and 2 bits for its kind ({@link #CONTENT}, {@link #REASONING} or both), so that a level of long
 * replies keeps its timing in a few primitive arrays. Immutable; an {@link Appender} makes one.
 */
final class TokenChunks {

  /** A chunk that carried content or a tool call: output that is not reasoning. */
  static final int CONTENT = 1;
  /** A chunk that carried reasoning. */
  static final int REASONING = 2;

  static final TokenChunks NONE = new TokenChunks(new long[0], new long[0], null, -1, -1, 0);

  private final long[] nanos;
  private final long[] kinds;
  /** Output tokens so far at each chunk, as the server's per-chunk usage said (-1 where it did not); null when it never did. */
  private final int[] usage;
  private final int firstContent;
  private final int firstReasoning;
  private final int reasoningChunks;

  private TokenChunks(long[] nanos, long[] kinds, int[] usage, int firstContent, int firstReasoning, int reasoningChunks) {
    this.nanos = nanos;
    this.kinds = kinds;
    this.usage = usage;
    this.firstContent = firstContent;
    this.firstReasoning = firstReasoning;
    this.reasoningChunks = reasoningChunks;
  }

  int count() {
    return nanos.length;
  }

  /** Arrival of chunk {@code i}. */
  long nanos(int i) {
    return nanos[i];
  }

  void forEach(LongConsumer arrival) {
    for (long t : nanos) arrival.accept(t);
  }

  /** Gives each gap between successive chunks, in order. */
  void forEachGap(LongConsumer gap) {
    for (int i = 1; i < nanos.length; i++) gap.accept(nanos[i] - nanos[i - 1]);
  }

  /** Output tokens so far at chunk {@code i}, as its event's usage said; -1 when it carried none. */
  int usage(int i) {
    return usage == null ? -1 : usage[i];
  }

  /** {@link #CONTENT} and/or {@link #REASONING} bits of chunk {@code i}. */
  int kind(int i) {
    if (i < 0 || i >= nanos.length) throw new IndexOutOfBoundsException(i);
    return (int) (kinds[i >>> 5] >>> ((i & 31) << 1)) & 3;
  }

  /** Index of the first chunk that carried content, or -1. */
  int firstContent() {
    return firstContent;
  }

  /** Index of the first chunk that carried reasoning, or -1. */
  int firstReasoning() {
    return firstReasoning;
  }

  int reasoningChunks() {
    return reasoningChunks;
  }

  /** Chunks as they arrive, into arrays grown by half when full. Confined to one thread. */
  static final class Appender {
    private long[] nanos;
    private long[] kinds;
    private int[] usage; // null until an event's usage is given
    private int n;
    private int firstContent = -1;
    private int firstReasoning = -1;
    private int reasoningChunks;

    /** @param initial the chunks there is room for before the first growth */
    Appender(int initial) {
      nanos = new long[initial];
      kinds = new long[(initial + 31) >>> 5];
    }

    int count() {
      return n;
    }

    /** A chunk that arrived at {@code at}, carrying {@code kind} (not 0). */
    void add(long at, int kind) {
      if (n == nanos.length) {
        int size = Math.max(8, nanos.length + (nanos.length >> 1));
        nanos = Arrays.copyOf(nanos, size);
        kinds = Arrays.copyOf(kinds, (size + 31) >>> 5);
        if (usage != null) {
          int from = usage.length;
          usage = Arrays.copyOf(usage, size);
          Arrays.fill(usage, from, size, -1);
        }
      }
      nanos[n] = at;
      kinds[n >>> 5] |= (long) kind << ((n & 31) << 1);
      if ((kind & CONTENT) != 0 && firstContent < 0) firstContent = n;
      if ((kind & REASONING) != 0) {
        if (firstReasoning < 0) firstReasoning = n;
        reasoningChunks++;
      }
      n++;
    }

    /** The last chunk's event also said the output tokens so far ({@code continuous_usage_stats}). */
    void usage(int completion) {
      if (n == 0) return;
      if (usage == null) {
        usage = new int[nanos.length];
        Arrays.fill(usage, -1);
      }
      usage[n - 1] = completion;
    }

    /** The chunks so far, copied: adding more afterwards does not change them. */
    TokenChunks freeze() {
      if (n == 0) return NONE;
      return new TokenChunks(Arrays.copyOf(nanos, n), Arrays.copyOf(kinds, (n + 31) >>> 5),
          usage == null ? null : Arrays.copyOf(usage, n), firstContent, firstReasoning, reasoningChunks);
    }
  }
}
