package dev.llmbench.sessions;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.result.LoadShape;
import java.util.List;

/**
 * {@code @Sessions} as a sweep's input: conversations of several turns, each resending its history with the server's
 * replies. They make every turn's prompt, so they take nothing else that makes or shapes prompts, and a level sends
 * whole sessions, so it is not counted in requests.
 */
final class SessionsInput implements WorkloadSource {

  private final PlanContext context;
  private SessionWorkload sessions;

  SessionsInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    sessions = SessionSettings.of(context.extension(), context.workload()).orElseThrow();
  }

  @Override
  public boolean takes(Beside beside) {
    return SessionWorkload.takesBeside(beside); // the levels' sessions say the same when a finding advises them
  }

  @Override
  public String refusal(Beside beside) {
    if (beside == Beside.REQUEST_COUNT) {
      return "a @Sessions level sends whole sessions: count them with @Sessions(sessions = N) instead of @Measurement's "
          + "requests or rounds (or llmbench.sweep.requests / rounds), or bound the level with @Measurement(duration)";
    }
    return "@Sessions makes each turn's prompt: remove @Trace, @Dataset, @SharedPrefix, @ExactInputTokens, @QualityEval "
        + "and the input and output length settings from this sweep (a file of conversations is @Sessions(file = ...))";
  }

  @Override
  public PromptSource prompts() {
    return PromptSource.rows(sessions.name(), sessions);
  }

  /** Whole sessions: a level sends their turns. */
  @Override
  public int requests(LoadShape load, int otherwise) {
    return sessions.turnsOfFirst(SessionSettings.sessionsPerLevel(context.extension(), load));
  }

  @Override
  public void checkLevel(String label, LoadShape load, StopRule stop) {
    SessionSettings.checkOpenLoop(label, load, sessions);
  }
}
