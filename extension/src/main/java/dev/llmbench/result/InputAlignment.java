package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.workload.ExactInputTokens;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * How a level's prompts were aligned to an exact length ({@link ExactInputTokens}) and how exact they came out.
 *
 * @param requestedTokens   the prompt tokens each request was to have, template included; 0 when each has its own
 *                          (a trace's rows: their {@code input_length})
 * @param method            how tokens were counted while aligning, e.g. {@code llama-server POST /apply-template + POST /tokenize}
 * @param templateTokens    what the server adds to the shortest aligned prompt: template, marker and lead word
 * @param plannedDeviation  the largest |count - requested| of the sample prompts checked while aligning
 * @param largestDeviation  the largest |{@code usage.prompt_tokens} - requested| of the level's requests; empty when
 *                          no response carried usage
 * @param checkedRequests   requests whose {@code usage.prompt_tokens} was compared
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record InputAlignment(int requestedTokens, String method, int templateTokens, int plannedDeviation,
    OptionalInt largestDeviation, int checkedRequests) {

  /** {@return whether every checked request had exactly the requested length (and at least one was checked)} */
  public boolean exact() {
    return largestDeviation.isPresent() && largestDeviation.getAsInt() == 0;
  }

  /** {@return one line for tables and summaries} */
  public String describe() {
    return (requestedTokens > 0 ? requestedTokens + " prompt tokens " : "each row's input_length in prompt tokens ")
        + (largestDeviation.isEmpty() ? "(no usage to check against)"
        : exact() ? "exact" : "within " + largestDeviation.getAsInt())
        + " (largest |usage.prompt_tokens - requested| " + (largestDeviation.isEmpty() ? "-" : largestDeviation.getAsInt())
        + " over " + checkedRequests + " requests; aligned by " + method + ")";
  }
}
