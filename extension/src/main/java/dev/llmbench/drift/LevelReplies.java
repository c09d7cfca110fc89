package dev.llmbench.drift;

import dev.llmbench.internal.client.ReplyTokens;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One level's replies by prompt, as drift compares them.
 *
 * @param replies   by prompt index; a prompt whose request failed is absent
 * @param failed    prompts whose request failed
 * @param unscored  replies that came without logprobs although they were asked for
 */
record LevelReplies(Map<Integer, Reply> replies, int failed, int unscored) {

  LevelReplies {
    replies = Collections.unmodifiableMap(new TreeMap<>(replies));
  }

  /**
   * One reply.
   *
   * @param text   its content
   * @param tokens its tokens' keys: from logprobs where the server sent them, else the stream's chunks as {@code text:}
   * @param scored its tokens with their top_logprobs; empty without logprobs
   */
  record Reply(String text, List<String> tokens, List<ReplyTokens.Token> scored) {
    Reply {
      tokens = List.copyOf(tokens);
      scored = List.copyOf(scored);
    }
  }

  static LevelReplies of(MeasuredLevel level, int prompts, boolean logprobsAsked) {
    Map<Integer, Reply> out = new TreeMap<>();
    int failed = 0;
    int unscored = 0;
    for (RequestMetrics m : level.metrics()) {
      RequestTrace t = m.trace();
      if (t.requestIndex() < 0) continue;
      int index = level.plan().workload().prompts().rowIndex(t.requestIndex()) % prompts;
      if (!t.succeeded()) {
        failed++;
        continue;
      }
      ReplyTokens tokens = t.replyTokens();
      if (logprobsAsked && tokens.isEmpty() && !t.content().isEmpty()) unscored++;
      List<String> keys = tokens.isEmpty() ? t.contentPieces().stream().map(p -> "text:" + p).toList()
          : tokens.tokens().stream().map(ReplyTokens.Token::key).toList();
      out.putIfAbsent(index, new Reply(t.content(), keys, tokens.tokens())); // a prompt sent twice counts once: its first reply
    }
    return new LevelReplies(out, failed, unscored);
  }
}
