package dev.llmbench.engine.sets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * How a question becomes the prompt sent, for the formats that carry only the question: the same text for a
 * generated item and for a row of a file, so that a generated set written to a file is the same eval.
 */
@API(status = INTERNAL)
public final class Prompts {

  /** What a GSM8K-style question is asked to end with: the marker its reference answers use. */
  public static final String GSM8K_INSTRUCTION =
      "Solve it step by step, then write the final answer as a number on the last line after '#### '.";

  public static final String CHOICE_INSTRUCTION = "Answer with the letter of the correct choice.";

  private Prompts() {}

  public static String gsm8k(String question) {
    return question.strip() + "\n" + GSM8K_INSTRUCTION;
  }

  /** The question, then one option a line as {@code A) ...}, then the instruction. */
  public static String multipleChoice(String question, List<String> choices) {
    StringBuilder s = new StringBuilder(question.strip()).append('\n');
    for (int i = 0; i < choices.size(); i++) s.append(letter(i)).append(") ").append(choices.get(i)).append('\n');
    return s.append(CHOICE_INSTRUCTION).toString();
  }

  /** {@code A} for 0; a choice set has at most 26 options. */
  public static String letter(int index) {
    if (index < 0 || index >= 26) throw new IllegalArgumentException("a choice index is 0 to 25, was " + index);
    return String.valueOf((char) ('A' + index));
  }
}
