package dev.llmbench.agents;

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
 * Agents replayed from a trace of their sessions: each level sends whole agent sessions, each turn resending the
 * session's history with the server's <em>live</em> reply, then waiting the trace's tool time (scaled by
 * {@link #toolTimeScale()}) before the next turn; a turn may fan out sub-agents, which run in parallel and all end
 * before their parent's next turn.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 8, 32})            // agents in flight
 * @Workload(maxTokens = 256)               // a turn's max_tokens unless the trace gives its own
 * @AgentTrace("traces/agents.jsonl")
 * void agents(SweepLevelResult r) { ... }
 * }</pre>
 *
 * <p>Under a {@link ConcurrencySweep} C agents are in flight (closed loop: an agent ends, with all its sub-agents,
 * and the next starts); under a {@link RateSweep} agents arrive at the rate (agents per second). Each level sends
 * {@link #agents()} agents, the trace's top-level sessions in order (wrapping round), or every one once. The file is
 * read and checked whole before any load: a turn whose parent does not exist, a cycle of parents, a negative gap, a
 * tool result for a call never made or turns out of order fail the sweep with the file, line and field. The formats
 * are described in docs/agents.md. {@link Workload} still gives {@code maxTokens} (of turns without their own),
 * {@code ignoreEos}, {@code temperature} and {@code prefixCache}: under {@code AVOID} a marker starts each agent's
 * first turn after its system prompt, so agents share their system prompt and nothing else.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.2")
public @interface AgentTrace {

  /** {@return the trace file, relative to the working directory or absolute} */
  String value();

  /** {@return what the file holds} */
  Format format() default Format.LLMBENCH;

  /**
   * {@return the factor every tool time is multiplied by: {@code 1} as recorded, {@code 0} for none, {@code 0.1} for
   * tools ten times as fast}
   */
  double toolTimeScale() default 1.0;

  /**
   * {@return tokens per {@code hash_ids} entry; 0 for the format's own: 64 for {@link Format#LLMBENCH} (as the Weka
   * traces), 512 for {@link Format#MOONCAKE} (AIPerf's {@code --isl-block-size}), a {@link Format#WEKA} file's
   * {@code block_size}}
   */
  int blockTokens() default 0;

  /**
   * {@return the agents (top-level sessions) each level sends, whole; 0 for every session of the trace once}
   * {@link Measurement#duration()} instead stops starting agents and turns once it has passed.
   */
  int agents() default 0;

  /**
   * {@return a header sent with every turn whose value names the agent (e.g. {@code X-Session-ID}), for routers that
   * pin a session to one replica; empty for none}
   */
  String affinityHeader() default "";

  /**
   * {@return whether a turn whose reply calls a tool sends that tool as a {@code tools} definition (the trace's
   * {@code tool}, else {@code tool}), so that the server answers with a call and the next turn answers it with
   * {@code tool} messages carrying the call's live id; false (the default) sends no {@code tools} and a tool's
   * result as user text, which every server takes. The server must take tools: llama-server with {@code --jinja},
   * vLLM with {@code --enable-auto-tool-choice}}
   */
  boolean toolCalls() default false;

  /** Agent trace formats. */
  enum Format {
    /**
     * LLMBench's own agent trace, JSON Lines of one turn each: {@code session}, {@code turn}, the input
     * ({@code text}, or {@code input_tokens} with optional {@code hash_ids}), {@code role} ({@code user} or
     * {@code tool}), {@code output_tokens}, {@code tool_ms} (the tool's time after the reply), and on a sub-agent's
     * first turn {@code parent} and {@code spawn_after} (docs/agents.md).
     */
    LLMBENCH,
    /**
     * AIPerf's multi-turn {@code mooncake_trace} rows: {@code session_id}, {@code timestamp} (the session's start,
     * ms), {@code delay} (ms after the previous turn's reply), {@code input_length} with {@code hash_ids} (the turn's
     * new tokens, as AIPerf's {@code synthesize agentic-code} writes them), {@code text_input} or delta
     * {@code messages}, and {@code output_length}.
     */
    MOONCAKE,
    /**
     * The Weka/AgentX traces (AIPerf's {@code weka_trace}, guidellm's {@code kind=weka}): one JSON object a
     * conversation, {@code id}, {@code system_tokens}, {@code requests} of {@code {t, in, out, think_time, api_time}}
     * and {@code {"type": "subagent", "requests": [...]}} entries between them; {@code in} is the whole prompt, of which
     * a turn sends the part its live history does not hold.
     */
    WEKA
  }
}
