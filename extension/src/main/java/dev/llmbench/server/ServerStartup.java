package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the server's own log said about its startup: the engine, the phases it went through with the time
 * in each (as the log showed them), and the durations the engine printed itself. Empty when no log was read
 * or its engine was not recognised.
 *
 * @param engine           {@code llama.cpp}, {@code vLLM}, {@code SGLang}
 * @param phases           in the order the log entered them
 * @param engineDurations  durations the engine printed, e.g. loading weights 15.1 s
 * @param readySinceLaunch from launching the process to ready, when LLMBench launched it
 * @param summary          one line: {@code llama.cpp: starting 0.3 s → loading model 0.6 s → listening}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ServerStartup(Optional<String> engine, List<Phase> phases, List<EngineDuration> engineDurations,
    Optional<Duration> readySinceLaunch, String summary) {

  /** No log read, or no engine recognised in it. */
  public static final ServerStartup NONE = new ServerStartup(Optional.empty(), List.of(), List.of(), Optional.empty(), "");

  /**
   * Copies the lists, so the value cannot change.
   *
   * @param engine           {@code llama.cpp}, {@code vLLM}, {@code SGLang}
   * @param phases           in the order the log entered them
   * @param engineDurations  durations the engine printed, e.g. loading weights 15.1 s
   * @param readySinceLaunch from launching the process to ready, when LLMBench launched it
   * @param summary          one line: {@code llama.cpp: starting 0.3 s → loading model 0.6 s → listening}
   */
  public ServerStartup {
    phases = List.copyOf(phases);
    engineDurations = List.copyOf(engineDurations);
  }

  /**
   * One phase.
   *
   * @param time how long the log showed it; empty when it began before the log was read
   */
  public record Phase(String name, Optional<Duration> time) {}

  /** A duration the engine printed itself. */
  public record EngineDuration(String what, Duration took) {}
}
