package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.model.DeviceRequest;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a container is asked for, read from settings and annotations, and the messages when it cannot start. */
class ContainerSpecTests {

  static ContainerSpec spec(List<String> command, Map<String, String> env) {
    return new ContainerSpec("vllm/vllm-openai:v0.11.0", command, env, GpuRequest.parse("all"),
        List.of(Bind.parse("/data/hf:/root/.cache/huggingface:ro")), "host", Optional.empty(), Duration.ofSeconds(30));
  }

  @Test
  void gpusAreWrittenAsDockerRunGpusTakesThem() {
    assertThat(GpuRequest.parse("all")).isEqualTo(new GpuRequest(-1, List.of()));
    assertThat(GpuRequest.parse("2")).isEqualTo(new GpuRequest(2, List.of()));
    assertThat(GpuRequest.parse("device=0,3")).isEqualTo(new GpuRequest(0, List.of("0", "3")));
    assertThat(GpuRequest.parse("")).isEqualTo(GpuRequest.NONE);
    assertThat(GpuRequest.parse("device=GPU-5f2a-11")).hasToString("device=GPU-5f2a-11");
    for (String bad : List.of("0", "-1", "some", "device=", "device=0,,1")) {
      assertThatThrownBy(() -> GpuRequest.parse(bad)).as(bad)
          .hasMessageContaining("write all, a count such as 2, or device=0,1");
    }
  }

  /** The request `docker run --gpus` sends: capability gpu, a count (-1 for all) or device ids. */
  @Test
  void gpusBecomeTheDeviceRequestDockerRunGpusSends() {
    DeviceRequest all = LaunchedContainer.deviceRequest(GpuRequest.parse("all"));
    assertThat(all.getCapabilities()).containsExactly(List.of("gpu"));
    assertThat(all.getCount()).isEqualTo(-1);
    assertThat(all.getDeviceIds()).isNull();
    DeviceRequest two = LaunchedContainer.deviceRequest(GpuRequest.parse("device=0,1"));
    assertThat(two.getDeviceIds()).containsExactly("0", "1");
    assertThat(two.getCount()).isNull();
  }

  @Test
  void mountsAreWrittenAsDockerRunVTakesThem() {
    assertThat(Bind.parse("/data/hf:/root/.cache/huggingface")).isEqualTo(new Bind("/data/hf", "/root/.cache/huggingface", false));
    assertThat(Bind.parse("/models:/models:ro").readOnly()).isTrue();
    for (String bad : List.of("/data", "/a:relative", "/a:/b:rx", ":/b")) {
      assertThatThrownBy(() -> Bind.parse(bad)).as(bad).hasMessageContaining("HOST_PATH:/container/path");
    }
  }

  @Test
  void environmentWordsAreSetOrPassedFromThisJvm() {
    Map<String, String> env = ContainerSpec.environment(List.of("CUDA_VISIBLE_DEVICES=0,1", "HF_TOKEN", "EMPTY="),
        name -> name.equals("HF_TOKEN") ? "hf_secret" : null);
    assertThat(env).containsExactly(Map.entry("CUDA_VISIBLE_DEVICES", "0,1"), Map.entry("HF_TOKEN", "hf_secret"),
        Map.entry("EMPTY", ""));
    assertThatThrownBy(() -> ContainerSpec.environment(List.of("HF_TOKEN"), name -> null))
        .hasMessageContaining("passes this JVM's variable HF_TOKEN, which is not set");
    assertThatThrownBy(() -> ContainerSpec.environment(List.of("1X=2"), name -> null))
        .hasMessageContaining("is not NAME=value or NAME");
  }

  @Test
  void thePortPlaceholderIsFoundAndFilledInTheCommandAndTheEnvironment() {
    ContainerSpec s = spec(List.of("--model", "m", "--port", "${port}"), Map.of("OLLAMA_HOST", "127.0.0.1:${port}"));
    assertThat(s.placeholders()).containsExactly("port");
    ContainerSpec r = s.resolve(Map.of("port", "18225"));
    assertThat(r.command()).containsExactly("--model", "m", "--port", "18225");
    assertThat(r.environment()).containsEntry("OLLAMA_HOST", "127.0.0.1:18225");
    assertThatThrownBy(() -> spec(List.of("${gpu}"), Map.of()).resolve(Map.of("port", "1")))
        .hasMessageContaining("${gpu}, which has no value");
  }

  /** Messages show the image and command, and the names of environment variables, never their values. */
  @Test
  void messagesNeverShowEnvironmentValues() {
    ContainerSpec s = spec(List.of("--model", "Qwen/Qwen2.5-7B"), Map.of("HF_TOKEN", "hf_secret"));
    assertThat(s.describe()).isEqualTo("vllm/vllm-openai:v0.11.0 --model Qwen/Qwen2.5-7B");
    assertThat(s.dockerRun()).isEqualTo("docker run --rm --network host --gpus all --ipc host "
        + "-v /data/hf:/root/.cache/huggingface:ro -e HF_TOKEN vllm/vllm-openai:v0.11.0 --model Qwen/Qwen2.5-7B");
    assertThat(ContainerDiagnosis.startFailure(s, new RuntimeException("boom", new IllegalStateException("no such host")), false))
        .startsWith("the image vllm/vllm-openai:v0.11.0 is not on this Docker host and could not be pulled (boom: no such host)")
        .contains("docker pull vllm/vllm-openai:v0.11.0").doesNotContain("hf_secret");
    assertThat(ContainerDiagnosis.startFailure(s, new RuntimeException("could not select device driver \"\" with capabilities: [[gpu]]"), true))
        .contains("NVIDIA container toolkit");
    assertThat(ContainerDiagnosis.startFailure(s, new RuntimeException("OCI runtime create failed"), true))
        .endsWith("Try it by hand: " + s.dockerRun()).doesNotContain("hf_secret");
  }

  /** A daemon started with --bridge=none answers, but Testcontainers in a container needs the host override. */
  @Test
  void noDockerSaysWhetherADaemonAnswersAndTheFix() {
    ContainerSpec s = spec(List.of(), Map.of());
    assertThat(ContainerDiagnosis.noDocker(s, new IllegalStateException("Could not find a valid Docker environment"),
        null, false)).startsWith("no Docker daemon answers, so the container vllm/vllm-openai:v0.11.0 cannot start")
        .contains("DOCKER_HOST is unset, /var/run/docker.sock does not exist").contains("Start the Docker daemon");
    assertThat(ContainerDiagnosis.noDocker(s, new RuntimeException("Status 404: {\"message\":\"network bridge not found\"}"),
        null, true)).startsWith("a Docker daemon answers but has no bridge network")
        .endsWith("set the environment variable TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 (the containers share the host's network)");
    // What Testcontainers says when its reaper's image cannot be pulled (it retries the pull first).
    assertThat(ContainerDiagnosis.noDocker(s, new IllegalStateException("Could not pull image: testcontainers/ryuk:0.14.0",
        new RuntimeException("no such host")), null, true)).startsWith("a Docker daemon answers, but Testcontainers could "
        + "not start its resource reaper (Ryuk)").contains("set the environment variable TESTCONTAINERS_RYUK_DISABLED=true");
  }

  /** An engine's own words for a port it could not bind (llama.cpp, uvicorn in vLLM and SGLang) bring the fix. */
  @Test
  void anExitOverATakenPortSaysSo() {
    for (String line : List.of("srv    start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 18221",
        "ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use")) {
      assertThat(ContainerDiagnosis.fix(List.of("loading", line))).as(line).contains("port is taken").contains("${port}");
    }
    assertThat(ContainerDiagnosis.fix(List.of("CUDA out of memory"))).isEmpty();
  }

  /** Testcontainers is optional: without it on the class path, the message names the dependency to add. */
  @Test
  void withoutTestcontainersTheMessageNamesTheDependency() throws Exception {
    try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
      assertThatThrownBy(() -> Containers.requireTestcontainers(bare)).isInstanceOf(ServerLaunchException.class)
          .hasMessageContaining("Testcontainers, which is not on the test class path")
          .hasMessageContaining("<groupId>org.testcontainers</groupId><artifactId>testcontainers</artifactId><version>"
              + Containers.TESTCONTAINERS_VERSION + "</version><scope>test</scope>");
    }
    Containers.requireTestcontainers(getClass().getClassLoader()); // here it is
  }

  /** The version the message names is the one the build uses. */
  @Test
  void theMessageNamesTheVersionTheBuildUses() throws Exception {
    assertThat(java.nio.file.Files.readString(java.nio.file.Path.of("..", "pom.xml")))
        .contains("<testcontainers.version>" + Containers.TESTCONTAINERS_VERSION + "</testcontainers.version>");
  }
}
