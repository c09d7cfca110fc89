package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.load.PromptGenerator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * The shared-prefix workload's prompts (SGLang {@code generated-shared-prefix}, inference-perf
 * {@code shared_prefix}): {@code groups} system prompts of {@code systemWords} words, each with
 * {@code perGroup} questions of {@code questionWords} words. Request {@code i} asks question
 * {@code (i mod groups x perGroup) / groups} of group {@code i mod groups}, so consecutive requests go to
 * different groups, as a server with many tenants sees them. The unique marker goes into the question
 * (message 1), after the shared system prompt.
 */
@API(status = INTERNAL)
public final class SharedPrefixText implements PromptGenerator {

  private static final String[] WORDS = ("the model serves a request from its cache when the prompt starts with "
      + "tokens it has seen before so that the prefill of a long system prompt is paid once per group and every "
      + "question after it costs only its own tokens").split(" ");

  private final int groups;
  private final int perGroup;
  private final int systemWords;
  private final int questionWords;
  private final long seed;

  public SharedPrefixText(int groups, int perGroup, int systemWords, int questionWords, long seed) {
    if (groups < 1 || perGroup < 1) {
      throw new IllegalArgumentException("@SharedPrefix needs groups >= 1 and promptsPerGroup >= 1, was " + groups + " and "
          + perGroup);
    }
    if (systemWords < 1 || questionWords < 1) {
      throw new IllegalArgumentException("@SharedPrefix needs systemPromptTokens >= 1 and questionTokens >= 1, was "
          + systemWords + " and " + questionWords);
    }
    this.groups = groups;
    this.perGroup = perGroup;
    this.systemWords = systemWords;
    this.questionWords = questionWords;
    this.seed = seed;
  }

  @Override
  public List<ChatMessage> messages(int index) {
    int j = Math.floorMod(index, groups * perGroup);
    int group = j % groups;
    int question = j / groups;
    return List.of(ChatMessage.system(words(seed * 1_000_003L + group, systemWords)),
        ChatMessage.user(words((seed * 1_000_003L + group) * 7_919L + question + 1, questionWords)));
  }

  /** The group request {@code index} belongs to. */
  public int group(int index) {
    return Math.floorMod(index, groups * perGroup) % groups;
  }

  @Override
  public Optional<String> describe() {
    return Optional.of("shared prefix: " + groups + " groups x " + perGroup + " questions, system prompt " + systemWords
        + " + question " + questionWords + " words");
  }

  @Override
  public int markerMessage() {
    return 1;
  }

  private static String words(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) text.append(' ');
      text.append(WORDS[random.nextInt(WORDS.length)]);
    }
    return text.toString();
  }
}
