package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The client's token totals for a level next to the server's own counter deltas, for the server families
 * whose counters are known.
 *
 * @param outputCounter the server counter of generated tokens
 * @param clientOutput  output tokens the client counted (from each response's {@code usage})
 * @param serverOutput  how much that counter rose during the level
 * @param promptCounter the server counter(s) of prompt tokens
 * @param clientPrompt  prompt tokens the client counted
 * @param serverPrompt  how much those counters rose
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TokenCrossCheck(String outputCounter, long clientOutput, double serverOutput, String promptCounter,
    long clientPrompt, double serverPrompt) {

  /** {@return whether the server's output counter rose by exactly the client's output tokens} */
  public boolean outputMatches() {
    return serverOutput == clientOutput;
  }

  /** {@return whether the server's prompt counters rose by exactly the client's prompt tokens} */
  public boolean promptMatches() {
    return serverPrompt == clientPrompt;
  }

  /** {@return whether both totals match} */
  public boolean matches() {
    return outputMatches() && promptMatches();
  }

  /** {@code output tokens 4096 = llamacpp:tokens_predicted_total +4096; prompt tokens ...}. */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "output tokens %d %s %s +%.0f; prompt tokens %d %s %s +%.0f",
        clientOutput, outputMatches() ? "=" : "≠", outputCounter, serverOutput,
        clientPrompt, promptMatches() ? "=" : "≠", promptCounter, serverPrompt);
  }
}
