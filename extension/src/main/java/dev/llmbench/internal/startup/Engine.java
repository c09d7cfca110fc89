package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The inference engines whose startup logs LLMBench reads, and the lines that mark each phase. The
 * patterns are the engines' own log statements, found in their public sources (cited per engine); a
 * line matches anywhere, so log prefixes (timestamps, levels, process tags) do not matter.
 */
@API(status = INTERNAL)
public enum Engine {

  /*
   * llama.cpp's llama-server. Sources: tools/server/server.cpp ("loading model", "model loaded",
   * "server is listening on %s"), tools/server/server-context.cpp (load_model: "loading model '%s'"),
   * common/common.cpp (common_init_result: context, then "llama threadpool init"; then, if warm-up is on,
   * "warming up the model with an empty run"), common/log.cpp (the "M.SS.mmm.uuu L " prefix: minutes,
   * seconds, ms, µs since start); lines and versions in docs/startup-phases.md section 3.
   * Build 11669 (Debian 0.7.0) prints only the srv/cmn lines at the default verbosity, so "llama threadpool
   * init" is its only line before the warm-up; older builds print loader, context and KV cache lines.
   * Ready: "llama_server: listening on http://..." (b11669), "server is listening on http://..." (b9xxx),
   * "main: server is listening on [http://]host:port - starting the main loop" (2024-2025). The old
   * "main: HTTP server is listening, hostname: ..." comes before the model load and is not a phase.
   */
  LLAMA_CPP("llama.cpp",
      "llama_server: |main: build = |^build: \\d+ \\(|main: loading model|load_model: loading model|llama_model_loader: "
          + "|system_info: n_threads|common_init_from_params: |common_params_print_info: |load_backend: loaded "
          + "|main: (?:HTTP )?server is listening",
      List.of(
          rule(StartupPhase.LISTENING, "(?:server is|llama_server:) listening on "),
          rule(StartupPhase.WARMING_UP, "warming up the model with an empty run|llama threadpool init"),
          rule(StartupPhase.KV_CACHE, "llama_context: (?:constructing|n_ctx)|llama_(?:init_from_model|new_context_with_model): n_"
              + "|llama_kv_cache(?:_unified|_init|_iswa)?: "),
          rule(StartupPhase.LOADING_MODEL, "(?:load_model|llama_server|main): loading model|llama_model_loader: loaded meta data"
              + "|(?:llm_)?load_tensors: (?:loading model tensors|offloaded)")),
      List.of(
          timing("fitting params to memory", "fitting params to free memory took (?<s>[\\d.]+) seconds")),
      Pattern.compile("^(\\d+)\\.(\\d{2})\\.(\\d{3})\\.(\\d{3}) [A-Z] ")),

  /*
   * SGLang. Sources: python/sglang/srt/model_executor/model_runner.py ("Init torch distributed begin/ends",
   * "Load weight begin", "Load weight end. [elapsed=%.2f s, ]type=...", "Memory pool end"),
   * mem_cache/memory_pool.py ("KV Cache is allocated"), the CUDA graph runners ("Capture cuda graph
   * begin/end. Time elapsed: %.2f s" up to v0.5.10; "Capture <target|draft> <decode|prefill|...> CUDA graph
   * begin/end. elapsed=%.2f s" since), managers/scheduler.py ("max_total_num_tokens=..."),
   * entrypoints/http_server.py (uvicorn.run, then a warm-up request to itself, then "The server is fired
   * up and ready to roll!"); docs/startup-phases.md section 2. With --enable-torch-compile the
   * compile happens inside the CUDA graph capture and prints no line of its own.
   */
  SGLANG("SGLang",
      "server_args=ServerArgs\\(|Init torch distributed begin|Load weight (?:begin|end)\\.|(?i:Capture .*graph (?:begin|end)\\.)"
          + "|KV Cache is allocated|Memory pool end\\.|max_total_num_tokens=|The server is fired up and ready to roll"
          + "|\\bsglang\\.(?:srt|launch_server)\\b|\\bsglang serve\\b",
      List.of(
          rule(StartupPhase.LISTENING, "The server is fired up and ready to roll"),
          rule(StartupPhase.WARMING_UP, "Uvicorn running on |\"(?:GET /(?:get_)?model_info|POST /generate) HTTP/1\\.1\""),
          rule(StartupPhase.STARTING_API_SERVER, "max_total_num_tokens=\\d+|Started server process \\["),
          rule(StartupPhase.CUDA_GRAPHS, "(?i:Capture (?:(?:target|draft) (?:decode|prefill|verify|extend) )?"
              + "(?:cuda|cpu|npu|piecewise cuda) graph begin)|Capturing batches|Compiling num tokens"),
          rule(StartupPhase.KV_CACHE, "Load weight end\\.|KV Cache is allocated|Mamba Cache is allocated|Memory pool end\\."),
          rule(StartupPhase.LOADING_MODEL, "Load weight begin|Loading safetensors checkpoint shards|Multi-thread loading shards")),
      List.of(
          timing("torch distributed init", "Init torch distributed ends\\. elapsed=(?<s>[\\d.]+) s"),
          timing("loading weights", "Load weight end\\. elapsed=(?<s>[\\d.]+) s"),
          timing("CUDA graph capture", "(?i:Capture .*?graph end\\. (?:Time elapsed: |elapsed=)(?<s>[\\d.]+) ?s)")),
      null),

  /*
   * vLLM. Sources: vllm/entrypoints/openai/api_server.py ("vLLM API server version", "Starting vLLM API
   * server %d on %s", now "Starting vLLM server on %s"), vllm/v1/worker/gpu_model_runner.py ("Starting to
   * load model", "Model loading took ... seconds", "Capturing CUDA graphs (...)", "Graph capturing finished
   * in %.0f secs"), model_loader/default_loader.py ("Loading weights took %.2f seconds"),
   * vllm/compilation/backends.py and monitor.py (torch.compile), v1/worker/gpu_worker.py and
   * v1/core/kv_cache_utils.py (KV cache), v1/engine/core.py ("init engine (profile, create kv cache, warmup
   * model) took"); uvicorn's "Application startup complete." is the ready line (vLLM passes its own socket,
   * so uvicorn never prints "Uvicorn running on" since ~0.6); docs/startup-phases.md section 1.
   * With --enforce-eager there are no compile or graph lines: those phases are simply absent.
   */
  VLLM("vLLM",
      "vLLM (?:API )?server version|Initializing a V[01] LLM engine|Initializing an LLM engine \\(v|for vLLM's torch\\.compile"
          + "|\\((?:APIServer|EngineCore(?:_DP\\d+|_\\d+)?|VllmWorker[^)]*|Worker(?:_[A-Z]+\\d+)*) pid=\\d+\\)"
          + "|\\b(?:api_server|gpu_model_runner|model_runner|core|backends|monitor|gpu_worker|worker|kv_cache_utils"
          + "|default_loader|loader|weight_utils|llm_engine|executor_base)\\.py:\\d+]",
      List.of(
          rule(StartupPhase.LISTENING, "Application startup complete|Uvicorn running on "),
          rule(StartupPhase.STARTING_API_SERVER, "init engine \\(profile, create kv cache, warmup model\\) took"
              + "|Starting vLLM (?:API )?server(?: \\d+)? on |Available routes are:|Started server process \\["),
          rule(StartupPhase.CUDA_GRAPHS, "Capturing (?:prefill )?CUDA graph|Capturing cudagraphs|Capturing the model for CUDA graphs"),
          rule(StartupPhase.KV_CACHE, "torch\\.compile (?:takes|took) [\\d.]+ s in total"
              + "|torch\\.compile and initial profiling/warmup run together took|Initial profiling/warmup run took"
              + "|Profiling CUDA graph memory|Available KV cache memory|GPU KV cache size|Memory profiling takes"
              + "|# (?:GPU|cuda|CUDA|\\w+) blocks: \\d+"),
          rule(StartupPhase.COMPILING, "for vLLM's torch\\.compile|vLLM's torch\\.compile cache is disabled"
              + "|Dynamo bytecode transform time|Compiling a graph for|Directly load the compiled graph"),
          rule(StartupPhase.LOADING_MODEL, "Starting to load model|Loading model weights|Loading safetensors checkpoint shards"
              + "|Loading weights took|Using model weights format|Time spent downloading weights")),
      List.of(
          timing("downloading weights", "Time spent downloading weights for \\S+: (?<s>[\\d.]+) seconds"),
          timing("loading weights", "Loading weights took (?<s>[\\d.]+) seconds"),
          timing("model loading", "Model loading took [\\d.]+ (?:GiB|GB)(?: memory)? and (?<s>[\\d.]+) seconds"),
          timing("Dynamo bytecode transform", "Dynamo bytecode transform time: (?<s>[\\d.]+) s"),
          timing("compiling a graph", "Compiling a graph for .+? takes (?<s>[\\d.]+) s"),
          timing("loading compiled graphs", "Directly load the compiled graph\\(s\\) for .+? took (?<s>[\\d.]+) s"),
          timing("torch.compile", "torch\\.compile (?:takes|took) (?<s>[\\d.]+) s in total"),
          timing("torch.compile and profiling", "torch\\.compile and initial profiling/warmup run together took (?<s>[\\d.]+) s"),
          timing("profiling/warm-up run", "Initial profiling/warmup run took (?<s>[\\d.]+) s"),
          timing("memory profiling", "Memory profiling takes (?<s>[\\d.]+) seconds"),
          timing("CUDA graph capture", "Graph capturing finished in (?<s>[\\d.]+) secs?"),
          timing("engine init (profile, KV cache, warm-up)",
              "init engine \\(profile, create kv cache, warmup model\\) took (?<s>[\\d.]+) s")),
      null);

  /** A line from a rank other than 0 (tensor, data, pipeline or expert parallel), whose durations repeat rank 0's. */
  private static final Pattern OTHER_RANK = Pattern.compile(
      "(?<![A-Za-z0-9])(?:TP|DP|PP|EP)[1-9]\\d*(?!\\d)|EngineCore_(?:DP)?[1-9]\\d*|VllmWorkerProcess|\\brank=[1-9]\\d*");

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

  /**
   * The durations {@code line} prints, unless another rank than 0 prints it; for llama.cpp, also its clock
   * at the line that says it listens.
   */
  List<EngineTiming> timingsIn(String line, Optional<StartupPhase> phase) {
    List<EngineTiming> out = new ArrayList<>();
    if (OTHER_RANK.matcher(line).find()) return out;
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
