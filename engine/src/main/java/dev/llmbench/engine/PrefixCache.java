package dev.llmbench.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Automatic prefix caching as vLLM V1 does it: the prompt's tokens in blocks of 16, each full block known by
 * a hash of its tokens chained to the hash of the block before, so a block is found only if its whole
 * prefix was seen before. A request's hit is its leading run of cached blocks, at most
 * {@code (promptTokens - 1) / 16} blocks: vLLM recomputes the last prompt token to get logits, so a prompt
 * seen in full still misses its last block when its length is a multiple of 16. Blocks are evicted least
 * recently used first, so memory stays bounded.
 */
final class PrefixCache {

  static final int BLOCK_TOKENS = 16;
  /** 65,536 blocks: a million tokens of KV cache, a few MB of hashes. */
  static final int DEFAULT_CAPACITY_BLOCKS = 1 << 16;

  private final Map<Long, Boolean> blocks;

  PrefixCache(int capacityBlocks) {
    if (capacityBlocks < 1) throw new IllegalArgumentException("capacity must be at least one block");
    this.blocks = new LinkedHashMap<>(1024, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        return size() > capacityBlocks;
      }
    };
  }

  /** The chained hashes of the full blocks of {@code tokens}; a partial last block has none. */
  static long[] blockHashes(List<String> tokens) {
    long[] hashes = new long[tokens.size() / BLOCK_TOKENS];
    long parent = 0xcbf29ce484222325L; // FNV-1a offset basis
    for (int b = 0; b < hashes.length; b++) {
      long h = parent;
      for (int t = b * BLOCK_TOKENS; t < (b + 1) * BLOCK_TOKENS; t++) {
        String token = tokens.get(t);
        for (int i = 0; i < token.length(); i++) h = (h ^ token.charAt(i)) * 0x100000001b3L;
        h = (h ^ 0x1F) * 0x100000001b3L; // token separator, so "ab"+"c" differs from "a"+"bc"
      }
      hashes[b] = h;
      parent = h;
    }
    return hashes;
  }

  /**
   * Looks a prompt up and caches its full blocks (as vLLM caches a request's blocks when it is scheduled, so a
   * request admitted later in the same step already hits them).
   *
   * @return prompt tokens served from the cache: a multiple of {@link #BLOCK_TOKENS}
   */
  synchronized int admit(long[] hashes, int promptTokens) {
    int hittable = Math.min(hashes.length, Math.max(0, promptTokens - 1) / BLOCK_TOKENS);
    int hits = 0;
    while (hits < hittable && blocks.get(hashes[hits]) != null) hits++;
    // Last block first, so a prefix shared by many prompts is the last to be evicted (vLLM frees in reverse too).
    for (int b = hashes.length - 1; b >= 0; b--) blocks.put(hashes[b], Boolean.TRUE);
    return hits * BLOCK_TOKENS;
  }

  synchronized int size() {
    return blocks.size();
  }

  /** Forgets every block, as vLLM's {@code POST /reset_prefix_cache} does. */
  synchronized void clear() {
    blocks.clear();
  }
}
