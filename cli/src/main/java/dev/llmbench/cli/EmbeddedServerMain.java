package dev.llmbench.cli;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.KeyedRoutes;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.engine.ServerMode;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the embedded engine standalone, so any OpenAI client (curl, vllm bench serve) can be pointed at it. */
@API(status = INTERNAL)
@Command(name = "llmbench-embedded", mixinStandardHelpOptions = true,
    description = "Serves an OpenAI-compatible simulated LLM on 127.0.0.1.")
public final class EmbeddedServerMain implements Callable<Integer> {

  /** The extension's default profile too (llmbench.embedded.profile). */
  static final String DEFAULT_PROFILE = "gqa-dense";

  @Option(names = "--port", defaultValue = "8000", description = "port on 127.0.0.1 (0 for a free one; default ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--profile", defaultValue = DEFAULT_PROFILE,
      description = "performance profile: mla-pcie, gqa-dense, reasoning, fixed-20ms, speculative, single-slot, instant (default ${DEFAULT-VALUE})")
  String profile;

  @Option(names = "--model", description = "model id to serve instead of the profile's")
  String model;

  @Option(names = "--startup-delay", defaultValue = "PT0S",
      description = "ISO-8601 duration during which /health answers 503 once the port listens, e.g. PT30S (default ${DEFAULT-VALUE})")
  Duration startupDelay;

  @Option(names = "--faults", description = "per-request faults, e.g. http500:5%%,reset:2%%,drop:every5; kinds: "
      + "http500, http429, http503, html, drop, silent, reset, cut, stall, badjson, badutf8, longline, crlf, jsontype, "
      + "nodone, midstreamerror")
  String faults;

  @Option(names = "--fault-seed", defaultValue = "0", description = "seed of the fault draws (default ${DEFAULT-VALUE})")
  long faultSeed;

  @Option(names = "--mode", defaultValue = "normal", description = "normal, never-ready or not-found (default ${DEFAULT-VALUE})")
  String mode;

  @Option(names = "--api-key", description = "require 'Authorization: Bearer <key>' on /v1/... routes, as vLLM's --api-key")
  String apiKey;

  @Option(names = "--api-key-routes", defaultValue = "v1",
      description = "routes the key guards: v1 (vLLM's: /v1/... only) or all (a gateway's: /health too, 403 for a wrong key)"
          + " (default ${DEFAULT-VALUE})")
  String apiKeyRoutes;

  @Option(names = "--keep-alive", defaultValue = "PT30S",
      description = "how long an idle connection stays open (default ${DEFAULT-VALUE}; vLLM's uvicorn uses PT5S)")
  Duration keepAlive;

  @Option(names = "--prefix-cache", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "automatic prefix caching of prompt blocks, as vLLM (default on; --no-prefix-cache turns it off)")
  boolean prefixCache;

  @Option(names = "--cold-batch-stall", defaultValue = "PT0S",
      description = "extra time for the first step at each new batch-size bucket, e.g. PT2S (default ${DEFAULT-VALUE})")
  Duration coldBatchStall;

  @Option(names = "--slowdown", defaultValue = "1.0",
      description = "every step takes this many times the profile's time, e.g. 1.2 (default ${DEFAULT-VALUE})")
  double slowdown;

  /** The options these flags describe. */
  EmbeddedOptions options() {
    CommandLine cli = new CommandLine(this);
    PerformanceProfile p = PerformanceProfile.named(profile).orElseThrow(() -> new CommandLine.ParameterException(
        cli, "unknown profile '" + profile + "'; choose one of " + PerformanceProfile.builtIn().keySet()));
    if (model != null) p = p.withModel(model);
    try {
      return EmbeddedOptions.builder(p).port(port).startupDelay(startupDelay).faults(faults).faultSeed(faultSeed)
          .mode(ServerMode.parse(mode)).apiKey(apiKey).keyedRoutes(KeyedRoutes.parse(apiKeyRoutes)).keepAlive(keepAlive).prefixCache(prefixCache)
          .coldBatchStall(coldBatchStall).slowdown(slowdown).build();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cli, e.getMessage());
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    EmbeddedOptions options = options();
    EmbeddedLlmServer server = EmbeddedLlmServer.start(options);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    PerformanceProfile p = options.profile();
    System.out.printf("LLMBench embedded engine '%s' (%s) serving model '%s' at %s%n",
        p.name(), p.description(), p.model(), server.baseUrl());
    System.out.println("  " + options);
    new CountDownLatch(1).await();
    return 0;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new EmbeddedServerMain()).execute(args));
  }
}
