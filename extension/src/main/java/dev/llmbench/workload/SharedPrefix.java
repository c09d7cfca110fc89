package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * The shared-prefix workload (SGLang's {@code generated-shared-prefix}, inference-perf's {@code shared_prefix}):
 * {@link #groups()} system prompts of {@link #systemPromptTokens()} tokens, each asked
 * {@link #promptsPerGroup()} distinct questions of {@link #questionTokens()} tokens; the output length is
 * {@link Workload#maxTokens()}. Request {@code i} asks question {@code i / groups} of group {@code i % groups},
 * round after round. Under the default {@link Workload.PrefixCache#AVOID} the unique marker goes at the start
 * of the question, after the shared system prompt, so the questions stay apart from every other level's while
 * the prefix is shared; the level's {@link SweepLevelResult#prefixCache()} is the server's own hit rate.
 * With {@link ExactInputTokens} the system prompt and the question are exactly their lengths in tokens;
 * without it, about as many words.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface SharedPrefix {

  /** {@return the distinct system prompts (SGLang {@code --gsp-num-groups}, inference-perf {@code num_groups})} */
  int groups() default 4;

  /** {@return the questions per system prompt ({@code --gsp-prompts-per-group}, {@code num_prompts_per_group})} */
  int promptsPerGroup() default 16;

  /** {@return the tokens of each system prompt ({@code --gsp-system-prompt-len}, {@code system_prompt_len})} */
  int systemPromptTokens() default 1024;

  /** {@return the tokens of each question ({@code --gsp-question-len}, {@code question_len})} */
  int questionTokens() default 64;
}
