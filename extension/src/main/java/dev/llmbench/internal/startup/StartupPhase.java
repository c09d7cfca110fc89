package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * What an inference server is doing while it starts, as its log says; not every engine has every phase, and
 * their order differs (SGLang compiles inside its CUDA graph capture, after the KV cache; vLLM compiles
 * before sizing it).
 */
@API(status = INTERNAL)
public enum StartupPhase {
  /** From launch to the first line that names a phase. */
  STARTING("starting"),
  LOADING_MODEL("loading model"),
  COMPILING("torch.compile"),
  /** Sizing (vLLM, SGLang profile memory) and allocating the KV cache; llama.cpp's context creation. */
  KV_CACHE("KV cache"),
  CUDA_GRAPHS("capturing CUDA graphs"),
  /** The engine is ready and its HTTP front end is starting (vLLM's API server process, SGLang's tokenizer). */
  STARTING_API_SERVER("starting API server"),
  /** llama.cpp's empty run; SGLang's request to itself once uvicorn runs. */
  WARMING_UP("warming up"),
  /** The engine says its HTTP server is up: the last phase, whose time is not counted. */
  LISTENING("listening");

  private final String label;

  StartupPhase(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
