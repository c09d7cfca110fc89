package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.RowSource;
import org.apiguardian.api.API;

/**
 * Rows of their own (a trace's) whose prompts are blocks of tokens: once {@link Alignment} has measured what
 * words cost on the server, each block is made of them, exactly its length in tokens.
 */
@API(status = INTERNAL)
public interface ExactRows extends RowSource {

  /** A prompt length typical of the rows, in tokens: the sample prompts that check the alignment are this long. */
  int sampleTokens();

  /**
   * These rows with their blocks made of {@code text}'s words, so that each row's prompt is exactly its length
   * on the server and each of its full blocks exactly the block size.
   *
   * @throws TokenCountException naming the row when one is shorter than what the server bills for the shortest
   *                             prompt, before any load
   */
  RowSource aligned(ExactText text);
}
