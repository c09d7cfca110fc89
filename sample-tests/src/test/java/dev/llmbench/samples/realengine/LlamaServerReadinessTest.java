package dev.llmbench.samples.realengine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmEndpoint;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The readiness wait against a server that is really loading: llama-server with a ~300M-parameter model
 * answers 503 "Loading model" for about a second before it serves. The class starts it itself, so that
 * the wait begins while it loads.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8093", readyTimeout = "2m", readyPollInterval = "50ms")
class LlamaServerReadinessTest {

  static final File REPO = new File("..").getAbsoluteFile();

  @BeforeAll
  static void startAServerThatIsStillLoading() throws IOException, InterruptedException {
    script("start", "8093", "1", "slow-load");
  }

  @AfterAll
  static void stop() throws IOException, InterruptedException {
    script("stop", "8093");
  }

  static void script(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("bash", "scripts/llama-server.sh"));
    command.addAll(List.of(args));
    // Not inheritIO: Surefire talks to the forked JVM over its stdout, and a child writing there corrupts it.
    File log = new File("target/llama-server-8093-script.log");
    Process p = new ProcessBuilder(command).directory(REPO).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
    String what = "scripts/llama-server.sh " + String.join(" ", args) + " (output in " + log.getAbsolutePath() + ")";
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", what).isTrue();
    assertThat(p.exitValue()).as("exit code of %s", what).isZero();
  }

  @Test
  void waitsThroughTheRealLoadingPhase(EndpointInfo endpoint) {
    List<String> log = endpoint.readinessLog();
    assertThat(log).anyMatch(line -> line.contains("GET /health answered 503") && line.contains("Loading model"));
    assertThat(log.get(log.size() - 1)).endsWith(" ready");
    assertThat(endpoint.model()).isEqualTo("llmbench-tiny"); // the alias, from /v1/models
    assertThat(endpoint.serverVersion()).isPresent();
  }
}
