package dev.llmbench.internal.startup;

import static dev.llmbench.internal.startup.StartupPhasesTests.lines;
import static dev.llmbench.internal.startup.StartupPhasesTests.phases;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The phase recogniser on vLLM and SGLang startup logs, verbatim from public GitHub threads (file names
 * give the thread; vLLM: vllm-project/vllm#29335 2025-11, zai-org/GLM-V#204 2025-10,
 * run-ai/runai-model-streamer#67 2025-06, QwenLM/Qwen3-VL#1589 2025-10; SGLang: sgl-project/sglang#4826
 * and #4339 2025-03, #15426 2025-12). Single lines come from docs/startup-phases.md, which names
 * their logs. Lines are replayed at the time their own timestamp says (second resolution); a line
 * without one (a progress bar) at the time of the line before.
 */
class VllmSglangPhasesTests {

  private static final Pattern CLOCK = Pattern.compile("\\b(\\d{2}):(\\d{2}):(\\d{2})\\b");

  @Test
  void vllmLoadsCompilesSizesTheKvCacheAndCapturesGraphs() {
    PhaseHistory h = replay("vllm-0.11-pr29335.log");
    assertThat(h.engine()).contains(Engine.VLLM);
    // "Model loading took" ends the load and starts nothing: the next phase begins with torch.compile's first line.
    assertThat(phases(h)).containsExactly(StartupPhase.COMPILING, StartupPhase.KV_CACHE, StartupPhase.CUDA_GRAPHS);
    // 11:44:01 torch.compile cache directory, 11:44:16 torch.compile total, 11:44:18 capture
    assertThat(h).hasToString("torch.compile 15.0 s → KV cache 2.0 s → capturing CUDA graphs 0.0 s so far");
    assertThat(h.engineTimings()).containsExactly(
        new EngineTiming("model loading", Duration.ofNanos(27_200_487_000L)),
        new EngineTiming("Dynamo bytecode transform", Duration.ofMillis(6_070)),
        new EngineTiming("compiling a graph", Duration.ofMillis(13_620)),
        new EngineTiming("torch.compile", Duration.ofMillis(19_690)));
  }

  @Test
  void vllmLoadPhaseBeginsWhenTheModelRunnerStartsLoading() {
    StartupPhases p = StartupPhases.fromLog();
    p.accept(new LogLine("(EngineCore pid=1504) INFO 04-24 12:34:54 [gpu_model_runner.py:4735] Starting to load model "
        + "kaitchup/Qwen3.5-27B-autoround-W4A16...", 0, false));
    p.accept(new LogLine("Loading safetensors checkpoint shards: 100% Completed | 10/10 [00:14<00:00,  1.50s/it]", 14, false));
    assertThat(p.snapshot(15).current()).contains(StartupPhase.LOADING_MODEL);
    assertThat(p.engine()).contains(Engine.VLLM);
  }

  @Test
  void vllmWithCachedCompileEndsWithTheEngineReadyAndTheApiServerStarting() {
    PhaseHistory h = replay("vllm-0.11-glm-v-204.log");
    assertThat(phases(h)).containsExactly(StartupPhase.COMPILING, StartupPhase.KV_CACHE, StartupPhase.CUDA_GRAPHS,
        StartupPhase.STARTING_API_SERVER);
    assertThat(h.timeIn(StartupPhase.CUDA_GRAPHS)).isEqualTo(Duration.ofSeconds(7)); // 09:11:57 to 09:12:04
    assertThat(h.engineTimings()).extracting(EngineTiming::toString).containsExactly(
        "loading compiled graphs 2.7 s", "torch.compile 7.1 s", "CUDA graph capture 7.0 s",
        "engine init (profile, KV cache, warm-up) 26.0 s");
    assertThat(h.listening()).isFalse();
  }

  @Test
  void vllmWithoutACaptureLineFoldsTheCaptureIntoTheKvCachePhase() {
    // This excerpt has no "Capturing CUDA graphs" bar: no boundary is invented.
    PhaseHistory h = replay("vllm-0.9-runai-67.log");
    assertThat(h.engine()).contains(Engine.VLLM);
    assertThat(phases(h)).containsExactly(StartupPhase.COMPILING, StartupPhase.KV_CACHE, StartupPhase.STARTING_API_SERVER);
    assertThat(h.timeIn(StartupPhase.KV_CACHE)).isEqualTo(Duration.ofSeconds(38)); // 11:03:17 to 11:03:55
    assertThat(h.engineTimings()).extracting(EngineTiming::what).contains("CUDA graph capture", "engine init (profile, KV cache, warm-up)");
  }

  @Test
  void vllmIsListeningWhenUvicornSaysStartupComplete() {
    StartupPhases p = StartupPhases.fromLog();
    List<String> tail = List.of(
        "(APIServer pid=1) INFO 07-21 04:58:58 [api_server.py:616] Starting vLLM server on http://0.0.0.0:8000",
        "(APIServer pid=1) INFO:     Started server process [1]",
        "INFO:     Application startup complete.");
    for (int i = 0; i < tail.size(); i++) p.accept(new LogLine(tail.get(i), i * 1_000_000_000L, false));
    PhaseHistory h = p.snapshot(5_000_000_000L);
    assertThat(h).hasToString("starting API server 2.0 s → listening");
    assertThat(h.listening()).isTrue();
  }

  @Test
  void vllmTensorParallelRanksRepeatLinesButOnlyRankZeroCounts() {
    PhaseHistory h = replay("vllm-0.11-qwen3-vl-1589.log");
    assertThat(phases(h)).containsExactly(StartupPhase.LOADING_MODEL);
    assertThat(h.engineTimings()).containsExactly(
        new EngineTiming("loading weights", Duration.ofMillis(30_760)),
        new EngineTiming("model loading", Duration.ofNanos(30_988_774_000L)));
  }

  @Test
  void vllmColouredProcessTagsAreReadWithoutTheirColours() {
    // Older vLLM colours the tag as ESC[1;36m(VllmWorker rank=0 pid=...)ESC[0;0m (format from the notes).
    StartupPhases p = StartupPhases.fromLog();
    p.accept(new LogLine("\u001B[1;36m(VllmWorker rank=0 pid=5021)\u001B[0;0m INFO 06-02 00:51:39 [default_loader.py:397] "
        + "Loading weights took 26.93 seconds", 0, false));
    p.accept(new LogLine("\u001B[1;36m(VllmWorker rank=1 pid=5022)\u001B[0;0m INFO 06-02 00:51:39 [default_loader.py:397] "
        + "Loading weights took 27.01 seconds", 0, false));
    PhaseHistory h = p.snapshot(0);
    assertThat(h.engine()).contains(Engine.VLLM);
    assertThat(h.engineTimings()).containsExactly(new EngineTiming("loading weights", Duration.ofMillis(26_930)));
  }

  @Test
  void sglangAllocatesTheKvCacheThenCapturesGraphs() {
    PhaseHistory h = replay("sglang-2025-03-pr4826.log");
    assertThat(h.engine()).contains(Engine.SGLANG);
    assertThat(phases(h)).containsExactly(StartupPhase.KV_CACHE, StartupPhase.CUDA_GRAPHS);
    assertThat(h.timeIn(StartupPhase.KV_CACHE)).isEqualTo(Duration.ofSeconds(1)); // 21:33:30 to 21:33:31
    assertThat(h.engineTimings()).isEmpty(); // this version's "Load weight end" has no elapsed time
  }

  @Test
  void sglangWarmsUpOnceUvicornRunsAndCountsRankZeroOnly() {
    PhaseHistory h = replay("sglang-2025-03-issue4339.log");
    assertThat(h.engine()).contains(Engine.SGLANG);
    // Data-parallel ranks finish their capture after the HTTP server is up: phases do not go back.
    assertThat(phases(h)).containsExactly(StartupPhase.STARTING_API_SERVER, StartupPhase.WARMING_UP);
    assertThat(h.engineTimings()).containsExactly(new EngineTiming("CUDA graph capture", Duration.ofMillis(12_960)));
  }

  @Test
  void sglangLoadsWeightsAfterTorchDistributedInit() {
    PhaseHistory h = replay("sglang-2025-12-pr15426.log");
    assertThat(h.engine()).contains(Engine.SGLANG);
    assertThat(phases(h)).containsExactly(StartupPhase.LOADING_MODEL);
  }

  @Test
  void sglangNewerLinesCarryTheirDurationsAndTheReadyLineEndsStartup() {
    StartupPhases p = StartupPhases.fromLog();
    List<String> log = List.of(
        "[2026-08-27 03:45:39] Init torch distributed begin.",
        "[2026-08-27 03:45:39] Init torch distributed ends. elapsed=0.05 s, mem usage=0.09 GB",
        "[2026-08-27 03:45:41] Load weight begin. avail mem=78.48 GB",
        "[2026-08-27 03:45:53] Load weight end. elapsed=12.02 s, type=Qwen3MoeForCausalLM, quant=fp8, fmt=e4m3, avail mem=49.33 GB, mem usage=29.15 GB.",
        "[2026-08-27 03:45:54] KV Cache is allocated. dtype: torch.bfloat16, #tokens: 392920, K size: 17.99 GB, V size: 17.99 GB",
        "[2026-08-27 03:45:54] Memory pool end. avail mem=12.70 GB",
        "[2026-08-27 03:46:30] Capture target decode CUDA graph end. elapsed=12.26 s, mem usage=0.34 GB, avail mem=10.54 GB.",
        "[2026-08-27 03:46:30] max_total_num_tokens=392920, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=40960, available_gpu_mem=10.54 GB",
        "[2026-08-27 03:46:30] INFO:     Started server process [6748]",
        "[2026-08-27 03:46:30] INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)",
        "[2026-08-27 03:46:31] INFO:     127.0.0.1:50388 - \"GET /model_info HTTP/1.1\" 200 OK",
        "[2026-08-27 03:46:32] The server is fired up and ready to roll!");
    for (String line : log) p.accept(new LogLine(line, at(line, 0), false));
    PhaseHistory h = p.snapshot(at(log.get(log.size() - 1), 0));
    assertThat(h).hasToString("loading model 12.0 s → KV cache 37.0 s → starting API server 0.0 s → warming up 2.0 s → listening");
    assertThat(h.engineTimings()).extracting(EngineTiming::toString)
        .containsExactly("torch distributed init 0.1 s", "loading weights 12.0 s", "CUDA graph capture 12.3 s");
  }

  @Test
  void sglangImportingVllmIsStillSglang() {
    // SGLang imports vLLM, whose platform line comes first (sgl-project/sglang#4848, 2025-04).
    StartupPhases p = StartupPhases.fromLog();
    p.accept(new LogLine("INFO 04-03 04:46:18 __init__.py:190] Automatically detected platform cuda.", 0, false));
    p.accept(new LogLine("[2025-04-03 04:46:21] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
        + "tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', tokenizer_mode='auto'", 1, false));
    assertThat(p.engine()).contains(Engine.SGLANG);
  }

  /** Replays a log from its own clock (seconds of the day), phases counted from the first recognised line. */
  private static PhaseHistory replay(String resource) {
    StartupPhases p = StartupPhases.fromLog();
    long last = 0;
    for (String line : lines(resource)) {
      last = at(line, last);
      p.accept(new LogLine(line, last, false));
    }
    return p.snapshot(last);
  }

  private static long at(String line, long previous) {
    Matcher m = CLOCK.matcher(line);
    if (!m.find()) return previous;
    long seconds = Long.parseLong(m.group(1)) * 3600 + Long.parseLong(m.group(2)) * 60 + Long.parseLong(m.group(3));
    return seconds * 1_000_000_000L;
  }
}
