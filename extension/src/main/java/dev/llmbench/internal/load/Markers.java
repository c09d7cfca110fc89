package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The unique markers that keep a batch's prompts out of the server's prefix cache: a pure function of the batch's
 * salt and the request's index, so runs repeat exactly and neighbours share no digits.
 */
@API(status = INTERNAL)
public final class Markers {

  private Markers() {}

  /**
   * {@code r} with a marker unique to {@code salt} and {@code index} at the start of its first message
   * (where a chat template puts the user's text first) and of its last (a completions request's prompt).
   */
  public static CompletionRequest withUniquePrefix(CompletionRequest r, long salt, int index) {
    String marker = marker(salt, index) + " ";
    List<ChatMessage> messages = new ArrayList<>(r.messages());
    int last = messages.size() - 1;
    for (int i : last == 0 ? new int[] {0} : new int[] {0, last}) {
      ChatMessage m = messages.get(i);
      messages.set(i, new ChatMessage(m.role(), marker + m.content()));
    }
    return new CompletionRequest(messages, r.maxTokens(), r.temperature(), r.ignoreEos(), r.stream(), r.seed(), r.bodyFields());
  }

  /**
   * 10 decimal digits of the same mix: SentencePiece and Qwen tokenizers split digits one by one, Llama 3's in
   * runs of at most 3, so the marker's token count does not depend on its value, as a hex marker's does.
   */
  static String digits(long salt, int index) {
    long z = salt + 0x9E3779B97F4A7C15L * (index + 1L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return String.format("%010d", Math.floorMod(z, 10_000_000_000L));
  }

  /** 8 hex digits: a 64-bit mix of the salt and the index (SplitMix64's finaliser), so neighbours share no digits. */
  public static String marker(long salt, int index) {
    long z = salt + 0x9E3779B97F4A7C15L * (index + 1L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return String.format("%08x", z & 0xFFFF_FFFFL);
  }
}
