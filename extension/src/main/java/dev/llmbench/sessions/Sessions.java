package dev.llmbench.sessions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.Workload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Multi-turn sessions: each level sends whole conversations, as AIPerf's {@code --conversation-num}, guidellm's
 * {@code turns=N}, vLLM's multi-turn benchmark and inference-perf's {@code user_session} do. Turn {@code t} of a
 * session sends every earlier user turn with the server's <em>real</em> reply to it (never a canned one), then
 * the session waits a think time before its next turn, so the server's prefix cache and KV memory decide the
 * speed of later turns.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 8})
 * @Workload(maxTokens = 64)
 * @Sessions(turns = "4", inputTokens = "uniform(32,96)", thinkTimeMillis = "uniform(100,500)")
 * void chat(SweepLevelResult r) { ... }
 * }</pre>
 *
 * <p>Under a {@link ConcurrencySweep} C sessions are in flight (closed loop: a session ends, the next starts);
 * under a {@link RateSweep} sessions arrive at the rate (sessions per second; {@code maxConcurrency} caps the
 * sessions in flight). Turns are synthetic ({@link #turns()} and {@link #inputTokens()} drawn per session and
 * turn from {@link #seed()}), or every user turn of the conversations in {@link #file()}. Each level reports its
 * figures by turn index (TTFT, TPOT, ITL and latency of turn 1 against turn 5), the history each turn sent and
 * the prefix-cache hit per turn where the server reports it ({@code usage.prompt_tokens_details.cached_tokens},
 * llama-server's {@code timings.cache_n}); the findings say when later turns slow beyond noise or when the cache
 * stops helping. {@link Workload} still gives {@code maxTokens} (each turn's), {@code ignoreEos},
 * {@code temperature} and {@code prefixCache}: under {@code AVOID} a marker starts each session's first turn, so
 * sessions share nothing with each other while each turn shares its whole history with the turn before.
 * A file's conversation with a turn missing its role or content fails the sweep before load with its file, line
 * and field.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Sessions {

  /**
   * {@return the turns of each session, as a length distribution: {@code 4}, {@code uniform(2,6)},
   * {@code empirical(2:50,8:50)}; empty for 4 synthetic turns, or every user turn of a {@link #file()}'s
   * conversation (with a file, a session sends at most the drawn number of its conversation's user turns)}
   */
  String turns() default "";

  /** {@return each synthetic user turn's length in tokens (about one word each), as a length distribution} */
  String inputTokens() default "64";

  /**
   * {@return the think time between a reply and the session's next turn, in milliseconds, as a length
   * distribution ({@code 500}, {@code uniform(200,2000)}, {@code lognormal(1000,700)}); {@code 0} for none}
   */
  String thinkTimeMillis() default "0";

  /**
   * {@return the sessions each level sends, whole; 0 for automatic: 2 per slot of a closed loop (at least 4),
   * 10 seconds of arrivals of an open loop (at least 4)} {@link Measurement#duration()} instead stops
   * starting sessions and turns once it has passed.
   */
  int sessions() default 0;

  /** {@return the conversations to send, relative to the working directory or absolute; empty for synthetic turns} */
  String file() default "";

  /** {@return what {@link #file()} holds} */
  Format format() default Format.SHAREGPT;

  /**
   * {@return a header sent with every turn whose value names the session (e.g. {@code X-Session-ID}), for
   * routers that pin a session to one replica; empty for none}
   */
  String affinityHeader() default "";

  /** {@return the seed of the turn counts, lengths, think times and order of the conversations} */
  long seed() default 0;

  /** Conversation files. */
  enum Format {
    /**
     * A JSON array of {@code {"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}]}}:
     * every {@code human} (or {@code user}) turn is a turn of the session; the file's own replies are not sent,
     * the server's are.
     */
    SHAREGPT,
    /**
     * JSON Lines, one conversation a line: {@code {"messages": [{"role": "user", "content": ...}, ...]}}; a
     * leading {@code system} message starts every turn's history, every {@code user} message is a turn.
     */
    JSONL
  }
}
