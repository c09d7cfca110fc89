package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.RequestTrace;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How a level's replies are judged beyond arriving, as a feature judges them (a tool call or a JSON answer against the
 * request's schema): one per level, so that what it compiles of a request's fields is compiled once for the level.
 * A request it checks keeps its whole reply text, since a check reads it whole.
 */
@API(status = INTERNAL)
@FunctionalInterface
public interface ReplyJudge {

  /** Judges nothing: every reply is taken as it arrives. */
  ReplyJudge NONE = fields -> Optional.empty();

  /** The check of a request with these body fields ({@code tools}, {@code response_format}); empty for none. */
  Optional<Check> of(Map<String, String> bodyFields);

  /** One request's check. */
  @FunctionalInterface
  interface Check {
    /** The trace with the check's verdict on its reply. */
    RequestTrace judge(RequestTrace trace);
  }
}
