package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.result.InputAlignment;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Request {@code i}'s messages, made by code fixed before load: prompts aligned to a tokenizer
 * ({@code internal.tokens}), the shared-prefix workload. A pure function of the index.
 */
@API(status = INTERNAL)
public interface PromptGenerator {
  List<ChatMessage> messages(int index);

  /** The message the unique marker goes into: 0, or 1 to keep a shared system prompt shared. */
  default int markerMessage() {
    return 0;
  }

  /** What the workload is, for the line under a sweep's table (e.g. its groups); empty to say nothing. */
  default Optional<String> describe() {
    return Optional.empty();
  }

  /** How the prompts were aligned, without the level's own figures; empty when they were not. */
  default Optional<InputAlignment> alignment() {
    return Optional.empty();
  }
}
