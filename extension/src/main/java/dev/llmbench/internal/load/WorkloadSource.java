package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.result.LoadShape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * Where a sweep's input comes from, as a feature declares it ({@code Feature#workload}): a source of conversations
 * (a trace's rows, a dataset's, an eval's items, sessions, the shared-prefix prompts), or a shaping of the prompts
 * another source brings (exact input lengths, what every request adds). A source says what it takes beside it ({@link #takes}) and what it
 * says when something it does not take is declared ({@link #refusal}): the planner holds no matrix of features. It
 * is found before anything is read ({@link #replays()} may be asked of any method); {@link #check} reads and checks
 * its annotations and files, before any load.
 */
@API(status = INTERNAL)
public interface WorkloadSource {

  /** What may be declared beside a source; each source says which it takes. */
  enum Beside {
    /** Another source of prompts: a sweep sends one. */
    ANOTHER_SOURCE,
    /** {@code @ExactInputTokens}: prompts aligned to their exact length before load. */
    EXACT_INPUT_TOKENS,
    /** {@code @Workload(inputLength)}: synthetic input lengths drawn from a distribution. */
    INPUT_LENGTHS,
    /** {@code @Workload(outputLength)}: {@code max_tokens} drawn from a distribution. */
    OUTPUT_LENGTHS,
    /** {@code @Measurement(requests)} or {@code rounds} (or their settings): a count of requests per level. */
    REQUEST_COUNT,
    /** {@code @Measurement(duration)} or {@code targetCiHalfWidth}: a level bounded by time or by its interval. */
    DURATION_OR_TARGET
  }

  /**
   * Reads and checks the source's annotations and files, before any load; {@code all} are the sweep's sources, this
   * one among them, in the registry's order.
   *
   * @throws IllegalArgumentException naming what is wrong and the fix
   */
  default void check(List<WorkloadSource> all) {}

  /** Whether it brings the sweep's prompts (at most one source does), rather than shaping another's. */
  default boolean bringsPrompts() {
    return true;
  }

  /** Whether {@code beside} may be declared with this source. */
  default boolean takes(Beside beside) {
    return false;
  }

  /** What it says when {@code beside}, which it does not take, is declared with it: the conflict and the fix. */
  String refusal(Beside beside);

  /** The sweep's prompts, once checked; only asked of a source that {@link #bringsPrompts()}. */
  default PromptSource prompts() {
    throw new IllegalStateException(getClass().getSimpleName() + " brings no prompts");
  }

  /** How the prompts are aligned to their exact lengths, when this source asks for it. */
  default Optional<PromptSource.Exact> exact() {
    return Optional.empty();
  }

  /** Whether the method replays this source at its own times (timed replay) instead of under a sweep's loads. */
  default boolean replays() {
    return false;
  }

  /** The timed replay's levels, once checked; only asked when {@link #replays()}. */
  default Replay replay() {
    throw new IllegalStateException(getClass().getSimpleName() + " has no times of its own");
  }

  /** The requests a level of {@code load} sends when {@code @Measurement} leaves it automatic ({@code otherwise}: the load's). */
  default int requests(LoadShape load, int otherwise) {
    return otherwise;
  }

  /**
   * Checks one level before any load: its load and when it stops.
   *
   * @throws IllegalArgumentException starting with {@code label}, naming what is wrong and the fix
   */
  default void checkLevel(String label, LoadShape load, StopRule stop) {}

  /** The {@code max_tokens} a level reports when the source sets each request's own (the largest, or the one). */
  default OptionalInt maxTokens() {
    return OptionalInt.empty();
  }

  /** What it adds to every request of the sweep besides its prompt (tools, a response format, embeddings batches). */
  default RequestExtras extras() {
    return RequestExtras.NONE;
  }

  /**
   * Checks the sweep's planned levels, their requests whole (e.g. the rows a dataset sends against what every request
   * adds), before any load.
   *
   * @throws IllegalArgumentException naming what is wrong and the fix
   */
  default void checkLevels(List<LevelPlan> levels) {}

  /** This source as {@code type} (e.g. the plan an eval grades its levels by), if it is one. */
  default <T> Optional<T> as(Class<T> type) {
    return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
  }

  /**
   * A replay's levels: each a time scale, sent at the source's own times.
   *
   * @param name        the display-name pattern the annotation gives, blank for {@code defaultName}
   * @param placeholder what a level's value replaces in the name
   */
  record Replay(String name, String defaultName, String placeholder, List<Level> levels) {
    public Replay {
      levels = List.copyOf(levels);
    }

    /**
     * @param load     an open loop at the replay's mean rate (what the level reports), capped as the annotation says
     * @param value    the level's value in its name, e.g. {@code 10}
     * @param prompts  the requests at their own times
     * @param requests what the level sends when automatic: every row
     */
    public record Level(LoadShape load, String value, PromptSource prompts, int requests) {}
  }
}
