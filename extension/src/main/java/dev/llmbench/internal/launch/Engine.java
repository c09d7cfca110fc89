package dev.llmbench.internal.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The inference engines whose startup logs LLMBench reads, and the lines that mark each phase. The
 * patterns are the engines' own log statements, found in their public sources (cited per engine); a
 * line matches anywhere, so log prefixes (timestamps, levels, process tags) do not matter.
 */
public enum Engine {

  /*
   * llama.cpp's llama-server. Sources: tools/server/server.cpp ("loading model", "model loaded",
   * "server is listening on %s"), tools/server/server-context.cpp (load_model: "loading model '%s'"),
   * common/common.cpp (common_init_result: context, then "llama threadpool init"; then, if warm-up is on,
   * "warming up the model with an empty run"), common/log.cpp (the "M.SS.mmm.uuu L " prefix: minutes,
   * seconds, ms, µs since start). Older builds print main: instead of llama_server: and log the model
   * loader, context and KV cache lines at the default verbosity; build 11669 (Debian 0.7.0) prints only
   * the srv/cmn lines unless -lv 4, so "llama threadpool init" is its only line before the warm-up. Old:
   * "main: HTTP server is listening, hostname: ..." comes before the model load and is not a phase; the
   * main loop's "server is listening on" had no http:// in some builds ("on 127.0.0.1:8080 - starting ...").
   */
  LLAMA_CPP("llama.cpp",
      "llama_server: |main: build = |main: loading model|load_model: loading model|llama_model_loader: "
          + "|system_info: n_threads|common_init_from_params: |common_params_print_info: |load_backend: loaded "
          + "|main: (?:HTTP )?server is listening",
      List.of(
          rule(StartupPhase.LISTENING, "(?:server is|llama_server:) listening on "),
          rule(StartupPhase.WARMING_UP, "warming up the model with an empty run|llama threadpool init"),
          rule(StartupPhase.KV_CACHE, "llama_context: constructing llama_context|llama_(?:init_from_model|new_context_with_model): n_"
              + "|llama_kv_cache(?:_unified|_init)?: "),
          rule(StartupPhase.LOADING_MODEL, "(?:load_model|llama_server|main): loading model|llama_model_loader: loaded meta data"
              + "|load_tensors: loading model tensors|llm_load_tensors: ")),
      List.of(),
      Pattern.compile("^(\\d+)\\.(\\d{2})\\.(\\d{3})\\.(\\d{3}) [A-Z] ")),

  /*
   * vLLM (V1 engine, 0.8 to 0.11). Sources: vllm/entrypoints/openai/api_server.py ("vLLM API server
   * version", "Starting vLLM API server %d on %s"), vllm/v1/worker/gpu_model_runner.py ("Starting to load
   * model", "Model loading took %.4f GiB and %.6f seconds", "Graph capturing finished in %.0f secs"),
   * vllm/model_executor/model_loader/default_loader.py ("Loading weights took %.2f seconds"),
   * vllm/compilation/backends.py and monitor.py (torch.compile), vllm/v1/core/kv_cache_utils.py and
   * vllm/v1/worker/gpu_worker.py (KV cache), vllm/v1/engine/core.py ("init engine (profile, create kv cache,
   * warmup model) took %.2f seconds"). Uvicorn prints "Application startup complete."
   */
  VLLM("vLLM",
      "vLLM API server version|Initializing a V1 LLM engine|Initializing an LLM engine \\(v|\\[api_server\\.py:\\d+]"
          + "|\\[gpu_model_runner\\.py:\\d+]|\\((?:APIServer|EngineCore(?:_DP\\d+)?) pid=\\d+\\)",
      List.of(
          rule(StartupPhase.LISTENING, "Starting vLLM API server(?: \\d+)? on |Application startup complete"),
          rule(StartupPhase.CUDA_GRAPHS, "Capturing CUDA graph|Capturing cudagraphs"),
          rule(StartupPhase.KV_CACHE, "Available KV cache memory|GPU KV cache size|Memory profiling takes|# GPU blocks:"),
          rule(StartupPhase.COMPILING, "Dynamo bytecode transform time|for vLLM's torch\\.compile|Compiling a graph for"),
          rule(StartupPhase.LOADING_MODEL, "Starting to load model|Loading safetensors checkpoint shards|Loading weights took")),
      List.of(
          timing("loading weights", "Loading weights took (?<s>[\\d.]+) seconds"),
          timing("model loading", "Model loading took [\\d.]+ GiB(?: memory)? and (?<s>[\\d.]+) seconds"),
          timing("Dynamo bytecode transform", "Dynamo bytecode transform time: (?<s>[\\d.]+) s"),
          timing("torch.compile", "torch\\.compile takes (?<s>[\\d.]+) s in total"),
          timing("memory profiling", "Memory profiling takes (?<s>[\\d.]+) seconds"),
          timing("CUDA graph capture", "Graph capturing finished in (?<s>[\\d.]+) secs?"),
          timing("engine init (profile, KV cache, warm-up)",
              "init engine \\(profile, create kv cache, warmup model\\) took (?<s>[\\d.]+) seconds")),
      null),

  /*
   * SGLang. Sources: python/sglang/srt/model_executor/model_runner.py ("Load weight begin", "Load weight
   * end", "Memory pool end"), python/sglang/srt/model_executor/cuda_graph_runner.py ("Capture cuda graph
   * begin", "Capture cuda graph end. Time elapsed: %.2f s"), python/sglang/srt/entrypoints/http_server.py
   * (warm-up request after uvicorn is up; "The server is fired up and ready to roll!").
   */
  SGLANG("SGLang",
      "server_args=ServerArgs\\(|Load weight begin|The server is fired up and ready to roll|Capture cuda graph begin",
      List.of(
          rule(StartupPhase.LISTENING, "The server is fired up and ready to roll"),
          rule(StartupPhase.WARMING_UP, "Uvicorn running on|Application startup complete"),
          rule(StartupPhase.CUDA_GRAPHS, "Capture cuda graph begin|Capturing batches"),
          rule(StartupPhase.KV_CACHE, "KV Cache is allocated|Memory pool end"),
          rule(StartupPhase.LOADING_MODEL, "Load weight begin|Loading safetensors checkpoint shards")),
      List.of(
          timing("CUDA graph capture", "Capture cuda graph end\\. Time elapsed: (?<s>[\\d.]+) s")),
      null);

  private record PhaseRule(StartupPhase phase, Pattern pattern) {}

  private record TimingRule(String what, Pattern pattern) {}

  private final String displayName;
  private final Pattern signature;
  private final List<PhaseRule> phases;
  private final List<TimingRule> timings;
  private final Pattern clock;

  Engine(String displayName, String signature, List<PhaseRule> phases, List<TimingRule> timings, Pattern clock) {
    this.displayName = displayName;
    this.signature = Pattern.compile(signature);
    this.phases = phases;
    this.timings = timings;
    this.clock = clock;
  }

  public String displayName() {
    return displayName;
  }

  /** The engine that prints {@code line}, if the line is one only that engine prints. */
  public static Optional<Engine> detect(String line) {
    for (Engine e : values()) {
      if (e.signature.matcher(line).find()) return Optional.of(e);
    }
    return Optional.empty();
  }

  /** The phase that {@code line} says the server has entered, if any. */
  Optional<StartupPhase> phaseOf(String line) {
    for (PhaseRule r : phases) {
      if (r.pattern().matcher(line).find()) return Optional.of(r.phase());
    }
    return Optional.empty();
  }

  /** The durations {@code line} prints; for llama.cpp, also its clock at the line that says it listens. */
  List<EngineTiming> timingsIn(String line, Optional<StartupPhase> phase) {
    List<EngineTiming> out = new ArrayList<>();
    for (TimingRule r : timings) {
      Matcher m = r.pattern().matcher(line);
      if (m.find()) out.add(new EngineTiming(r.what(), seconds(m.group("s"))));
    }
    if (clock != null && phase.filter(StartupPhase.LISTENING::equals).isPresent()) {
      Matcher m = clock.matcher(line);
      if (m.find()) {
        long micros = ((Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2))) * 1000 + Long.parseLong(m.group(3))) * 1000
            + Long.parseLong(m.group(4));
        out.add(new EngineTiming("listening after", Duration.ofNanos(micros * 1000)));
      }
    }
    return out;
  }

  private static Duration seconds(String s) {
    return Duration.ofNanos(Math.round(Double.parseDouble(s) * 1e9));
  }

  private static PhaseRule rule(StartupPhase phase, String regex) {
    return new PhaseRule(phase, Pattern.compile(regex));
  }

  private static TimingRule timing(String what, String regex) {
    return new TimingRule(what, Pattern.compile(regex));
  }

  @Override
  public String toString() {
    return displayName;
  }
}
