package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.result.InputAlignment;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * Requests made row by row by a source of their own (a trace), which also sets each row's {@code max_tokens}
 * and keeps prompts apart by a namespace instead of the unique-prefix marker.
 */
@API(status = INTERNAL)
public interface RowSource {
  /**
   * Row {@code index}'s request; {@code namespace} tells one batch of requests (a level, a warm-up round) from
   * another, so that prompts of different namespaces share no prefix while those of one namespace share
   * what the rows say they share.
   */
  CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace);

  /** The rows' own schedule (a trace's timestamps), or empty to send them as the level's load shape says. */
  /**
   * Whether a level sending these rows takes {@code beside}, as the rows' {@link WorkloadSource#takes} said when the
   * sweep was planned: a finding's advice is checked against it ({@link AdviceSetting}).
   */
  default boolean takes(WorkloadSource.Beside beside) {
    return true;
  }

  /** What to advise instead of {@code setting}, which these rows' levels do not take (e.g. more sessions, not rounds). */
  default Optional<String> instead(AdviceSetting setting) {
    return Optional.empty();
  }

  /** What every level that sends these rows says of them (e.g. conversations whose model's opening turn was not sent). */
  default java.util.List<String> warnings() {
    return java.util.List.of();
  }

  /**
   * What a level that sent the rows in {@code sent} (by index, from 0) says of them: by default what every level says
   * ({@link #warnings()}); rows known one by one (a trace's short last blocks) count only those the level sent.
   */
  default java.util.List<String> warnings(java.util.BitSet sent) {
    return warnings();
  }

  default Optional<LoadRunner.Arrivals> arrivals() {
    return Optional.empty();
  }

  /**
   * Whether every measured reply is kept whole and known by its request's index (an eval grades them);
   * otherwise a level keeps excerpts, as for any load.
   */
  default boolean keepsReplies() {
    return false;
  }

  /**
   * The conversations, when the rows are the first turns of multi-turn sessions: a level then sends whole
   * sessions ({@link SessionTurns}), and a row request (a warm-up's) is a session's first turn.
   */
  default Optional<SessionSource> sessions() {
    return Optional.empty();
  }

  /** How the rows' prompts were aligned to their exact lengths ({@code @ExactInputTokens}); empty when they were not. */
  default Optional<InputAlignment> alignment() {
    return Optional.empty();
  }

  /**
   * The prompt tokens row {@code index} asks for (a trace's {@code input_length}), or empty when its rows have
   * no length of their own. Asked in ascending order of {@code index}, so that rows may be streamed.
   */
  default OptionalInt inputTokens(int index) {
    return OptionalInt.empty();
  }
}
