package dev.llmbench.testkit;

import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded engine as a server process of its own, for tests that launch one:
 * {@code EngineMain --port P [--profile NAME] [--startup-delay PT1S]}. The command users run is llmbench-cli's
 * EmbeddedServerMain, out of this module's reach (the command-line module depends on this one).
 */
public final class EngineMain {

  private EngineMain() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) flags.put(args[i], args[i + 1]);
    String name = flags.getOrDefault("--profile", PerformanceProfile.GQA_DENSE.name());
    PerformanceProfile profile = PerformanceProfile.named(name)
        .orElseThrow(() -> new IllegalArgumentException("unknown profile '" + name + "'"));
    EmbeddedLlmServer server = EmbeddedLlmServer.start(profile, Integer.parseInt(flags.getOrDefault("--port", "0")),
        Duration.parse(flags.getOrDefault("--startup-delay", "PT0S")));
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.printf("LLMBench embedded engine '%s' serving model '%s' at %s%n", profile.name(), profile.model(),
        server.baseUrl());
    new CountDownLatch(1).await();
  }
}
