package dev.llmbench.engine.sets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One generated eval item, as a generic eval row names it, with three replies the embedded engine may give:
 * the right one, a wrong one, and one the grader finds no answer in.
 *
 * @param id        {@code arithmetic-17}: the kind and the index, unique across kinds
 * @param question  the question without the format's instruction (for a GSM8K or multiple-choice file)
 * @param choices   the options of a multiple-choice item, else empty
 * @param prompt    what is sent: the question with its instruction (and options)
 * @param grader    the generic row's grader name: {@code number}, {@code choice}, {@code exact}, {@code regex},
 *                  {@code contains}, {@code json}
 * @param expected  the answer the grader compares with (a letter for {@code choice}, JSON text for {@code json})
 * @param pattern   the regular expression of a {@code regex} item
 * @param schema    the JSON Schema of a {@code json} item, as text
 * @param correct   a reply the grader counts correct
 * @param wrong     a reply it counts wrong
 * @param unparsed  a reply it finds no answer in; empty where every non-blank reply is an answer (exact match)
 */
@API(status = INTERNAL)
public record GeneratedItem(String id, String question, List<String> choices, String prompt, String grader, String expected,
    Optional<String> pattern, Optional<String> schema, String correct, String wrong, Optional<String> unparsed) {

  public GeneratedItem {
    choices = List.copyOf(choices);
  }
}
