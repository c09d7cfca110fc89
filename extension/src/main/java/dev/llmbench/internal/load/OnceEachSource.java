package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Workload;
import dev.llmbench.result.LoadShape;
import org.apiguardian.api.API;

/**
 * A source that sends each of a fixed set of prompts once, with its own {@code max_tokens} (an eval's items, drift's
 * prompts): it takes a count or a duration beside it, checked level by level against the set, and no other shaping of
 * the prompts.
 */
@API(status = INTERNAL)
public abstract class OnceEachSource implements WorkloadSource {

  /** How many prompts the set holds, once checked. */
  protected abstract int size();

  /** What a level of it is called in its messages: {@code an eval level}. */
  protected abstract String level();

  /** What it sends, one of them: {@code item}, {@code prompt}. */
  protected abstract String item();

  /** What it says of another source or shaping declared beside it: the conflict and the fix. */
  protected abstract String refusal();

  /** Whether {@code workload} shapes the prompts itself (its own prompt, prompts, input lengths or several maxTokens). */
  protected static boolean shapesPrompts(Workload workload) {
    return workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")
        || workload.maxTokens().length > 1;
  }

  /** A count or a duration is checked level by level, against the set ({@link #checkLevel}). */
  @Override
  public boolean takes(Beside beside) {
    return beside == Beside.REQUEST_COUNT || beside == Beside.DURATION_OR_TARGET;
  }

  @Override
  public String refusal(Beside beside) {
    return refusal();
  }

  @Override
  public int requests(LoadShape load, int otherwise) {
    return size();
  }

  @Override
  public void checkLevel(String label, LoadShape load, StopRule stop) {
    if (!(stop instanceof StopRule.Count c && c.requests() <= size())) {
      throw new IllegalArgumentException(label + ": " + level() + " sends each of its " + size() + " " + item()
          + "s once, so it is bounded by them: leave @Measurement automatic (every " + item() + "), or ask for at most that many "
          + "requests" + (stop instanceof StopRule.Count c ? " (it asks for " + c.requests() + ")" : ", not a duration or a "
          + "target interval"));
    }
  }
}
