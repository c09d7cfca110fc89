package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.PromptGenerator;
import dev.llmbench.result.InputAlignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Synthetic prompts of exactly {@code target} prompt tokens, chat template and marker included, aligned
 * against a {@link TokenCounter} once, before load. A prompt is a lead word then words each preceded by a
 * space: tokenizers split words at the space before them (byte-level BPE's pre-tokenizer, SentencePiece's
 * {@code ▁} pieces, which never span two words), so a word costs the same tokens wherever it stands, and a
 * prompt's count is what the template, marker and lead word cost plus the sum of its words' costs. Aligning
 * measures those costs (one count for the shortest prompt, one per candidate word, written four times so a
 * cost is told from an accident at its edges), then checks three whole prompts and, when all three are off
 * by the same amount, shifts by it and checks again. Each request's words are drawn with its own seed, and a
 * one-token word fills the rest, so every request hits the target exactly when the costs hold.
 */
@API(status = INTERNAL)
public final class ExactText implements PromptGenerator {

  static final String LEAD = "Read";
  /** Words of one token in most vocabularies first, so that aligning usually stops after a few counts. */
  static final List<String> CANDIDATES = List.of("the", "a", "of", "and", "to", "in", "is", "it", "model", "token",
      "server", "request", "batch", "cache", "latency", "prompt", "I", "x");
  private static final int REPEATS = 4;
  private static final int ENOUGH_UNITS = 6;
  private static final int SAMPLES = 3;

  /** The request as it will be sent with {@code text} as its prompt, marked as request {@code index} of a batch. */
  @FunctionalInterface
  public interface Sampler {
    CompletionRequest request(String text, int index);
  }

  private final int target;
  private final long seed;
  private final List<String> units;
  private final int[] costs;
  private final int overhead;
  private final int planned;
  private final String method;

  private ExactText(int target, long seed, List<String> units, int[] costs, int overhead, int planned, String method) {
    this.target = target;
    this.seed = seed;
    this.units = units;
    this.costs = costs;
    this.overhead = overhead;
    this.planned = planned;
    this.method = method;
  }

  /**
   * @param api what the requests go to, for messages (e.g. {@code the chat API})
   * @throws TokenCountException when {@code target} is below the shortest prompt's count, or no one-token word is found
   */
  public static ExactText align(TokenCounter counter, int target, long seed, String api, Sampler sampler) {
    int shortest = counter.count(sampler.request(LEAD, 0));
    if (target < shortest) {
      throw new TokenCountException("inputTokens = " + target + " is below what the server bills for the shortest "
          + "prompt this workload sends on " + api + ": " + shortest + " tokens (its chat template, the unique "
          + "marker and one word; counted by " + counter.method() + "); ask for at least " + shortest + " input tokens");
    }
    List<String> units = new ArrayList<>();
    List<Integer> costs = new ArrayList<>();
    boolean single = false;
    for (String word : CANDIDATES) {
      if (units.size() >= ENOUGH_UNITS && single) break;
      int extra = counter.count(sampler.request(LEAD + (" " + word).repeat(REPEATS), 0)) - shortest;
      if (extra <= 0 || extra % REPEATS != 0) continue; // merged with a neighbour: its cost is not its own
      units.add(word);
      costs.add(extra / REPEATS);
      single |= extra == REPEATS;
    }
    if (!single) {
      throw new TokenCountException("no one-token word found among " + CANDIDATES + " by " + counter.method()
          + ", so prompts cannot be aligned to every length; align with the model's tokenizer.json "
          + "(@ExactInputTokens(method = TOKENIZER_JSON, tokenizer = \"...\")) or drop @ExactInputTokens");
    }
    int[] c = costs.stream().mapToInt(Integer::intValue).toArray();
    ExactText text = new ExactText(target, seed, List.copyOf(units), c, shortest, -1, counter.method());
    int[] off = text.check(counter, sampler);
    boolean sameOffset = off[0] != 0 && off[0] == off[1] && off[1] == off[2];
    if (sameOffset && target - (shortest + off[0]) >= 0) {
      text = new ExactText(target, seed, text.units, c, shortest + off[0], -1, counter.method());
      off = text.check(counter, sampler);
    }
    int planned = 0;
    for (int o : off) planned = Math.max(planned, Math.abs(o));
    return new ExactText(target, seed, text.units, c, text.overhead, planned, counter.method());
  }

  /** count - target of the first sample prompts, each with its own marker. */
  private int[] check(TokenCounter counter, Sampler sampler) {
    int[] off = new int[SAMPLES];
    for (int k = 0; k < SAMPLES; k++) off[k] = counter.count(sampler.request(text(k), k)) - target;
    return off;
  }

  /** Request {@code index}'s prompt text: the lead word and words worth {@code target - overhead} tokens. */
  public String text(int index) {
    return LEAD + block(seed * 31 + index, target - overhead);
  }

  /**
   * Words worth exactly {@code tokens} tokens, each with the space before it, drawn with {@code seed}: a block
   * to append to an aligned prompt (a trace's {@code hash_ids} block: equal seeds, equal bytes), since a word
   * costs the same wherever it stands.
   */
  public String block(long seed, int tokens) {
    StringBuilder text = new StringBuilder(tokens * 5);
    appendBlock(text, seed, tokens);
    return text.toString();
  }

  /** Appends {@link #block}{@code (seed, tokens)} to {@code text}, without a string of its own. */
  public void appendBlock(StringBuilder text, long seed, int tokens) {
    if (tokens < 0) throw new IllegalArgumentException("a block of " + tokens + " tokens");
    SplittableRandom random = new SplittableRandom(seed);
    int one = oneTokenUnit();
    for (int left = tokens; left > 0; ) {
      int u = random.nextInt(units.size());
      if (costs[u] > left) u = one;
      text.append(' ').append(units.get(u));
      left -= costs[u];
    }
  }

  /**
   * What the server bills for the shortest prompt beyond its words: template, marker (where the sampler put one)
   * and the lead word. A prompt of {@link #lead()} and blocks worth {@code n} tokens costs {@code overhead() + n}.
   */
  public int overhead() {
    return overhead;
  }

  /** The word every aligned prompt starts with; blocks ({@link #block}) follow it. */
  public String lead() {
    return LEAD;
  }

  /** How the tokens were counted, e.g. {@code llama-server POST /apply-template + POST /tokenize}. */
  public String method() {
    return method;
  }

  /** The largest |count - target| of the sample prompts checked while aligning. */
  public int plannedDeviation() {
    return planned;
  }

  private int oneTokenUnit() {
    for (int u = 0; u < costs.length; u++) if (costs[u] == 1) return u;
    throw new IllegalStateException("aligned without a one-token word");
  }

  @Override
  public List<ChatMessage> messages(int index) {
    return List.of(ChatMessage.user(text(index)));
  }

  @Override
  public Optional<InputAlignment> alignment() {
    return Optional.of(new InputAlignment(target, method, overhead, planned, OptionalInt.empty(), 0));
  }

  /** The words used and what each costs, for messages and tests. */
  public String units() {
    StringBuilder s = new StringBuilder();
    for (int u = 0; u < costs.length; u++) s.append(u == 0 ? "" : ", ").append(units.get(u)).append('=').append(costs[u]);
    return s.toString();
  }
}
