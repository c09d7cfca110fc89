package dev.llmbench.internal.embedded;

import static org.apiguardian.api.API.Status.INTERNAL;

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

  @Option(names = "--port", defaultValue = "8000", description = "port on 127.0.0.1 (0 for a free one; default ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--profile", defaultValue = "mla-pcie",
      description = "performance profile: mla-pcie, gqa-dense, reasoning, fixed-20ms, speculative, single-slot, instant (default ${DEFAULT-VALUE})")
  String profile;

  @Option(names = "--model", description = "model id to serve instead of the profile's")
  String model;

  @Option(names = "--startup-delay", defaultValue = "PT0S",
      description = "ISO-8601 duration during which /health answers 503, e.g. PT30S (default ${DEFAULT-VALUE})")
  Duration startupDelay;

  @Override
  public Integer call() throws InterruptedException {
    PerformanceProfile p = PerformanceProfile.named(profile).orElseThrow(() -> new CommandLine.ParameterException(
        new CommandLine(this), "unknown profile '" + profile + "'; choose one of " + PerformanceProfile.builtIn().keySet()));
    if (model != null) p = p.withModel(model);
    EmbeddedLlmServer server = EmbeddedLlmServer.start(p, port, startupDelay);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.printf("LLMBench embedded engine '%s' (%s) serving model '%s' at %s%n",
        p.name(), p.description(), p.model(), server.baseUrl());
    new CountDownLatch(1).await();
    return 0;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new EmbeddedServerMain()).execute(args));
  }
}
