package dev.llmbench.launch;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.internal.junit.LlmEndpointExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The suite starts the inference server in a container, through Testcontainers, as it starts a database:
 * from an image, with a command, environment, GPUs and mounts. Everything else is as with
 * {@link LaunchServer}: the container's output goes to a log file beside the reports, the engine's startup
 * phases are read from it while waiting (llama.cpp, vLLM and SGLang are recognised), a container that exits
 * before it is ready fails the wait within seconds with its exit code and last log lines, and the container
 * is stopped ({@code docker stop}: SIGTERM, then SIGKILL after {@link #stopGrace()}) and removed when the run
 * ends.
 *
 * <pre>{@code
 * @LlmEndpoint(readyTimeout = "30m")
 * @LaunchContainer(image = "vllm/vllm-openai:v0.11.0", gpus = "all", ipc = "host",
 *     command = {"--model", "Qwen/Qwen2.5-7B-Instruct", "--host", "127.0.0.1", "--port", "${port}"},
 *     volumes = "/data/hf:/root/.cache/huggingface", environment = "HF_TOKEN")
 * class QwenInVllmTest { ... }
 * }</pre>
 *
 * <p>The container uses the host's network ({@code docker run --network host}): the server binds a port of
 * this machine, and {@code ${port}} (in the command or the environment) becomes a free one on 127.0.0.1, the
 * base URL {@code http://127.0.0.1:<port>} unless {@code llmbench.base-url} names another. Needs
 * {@code org.testcontainers:testcontainers} on the test class path (an optional dependency of LLMBench) and a
 * Docker daemon. Every attribute is a setting ({@code llmbench.container.*}); {@code llmbench.container.image}
 * set without the annotation starts a container for any suite.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LlmEndpointExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface LaunchContainer {

  /** {@return the image, e.g. {@code vllm/vllm-openai:v0.11.0}; pulled when the Docker host does not have it} Setting: {@code llmbench.container.image}. */
  String image();

  /** {@return the arguments after the image (one line in the setting); none for the image's own command} Setting: {@code llmbench.container.command}. */
  String[] command() default {};

  /**
   * {@return variables set in the container, {@code NAME=value} each, or {@code NAME} alone for this JVM's own
   * value (as {@code docker run -e NAME}; never printed)} Setting: {@code llmbench.container.env}.
   */
  String[] environment() default {};

  /** {@return the GPUs, as {@code docker run --gpus}: {@code all}, a count, {@code device=0,1}; empty for none} Setting: {@code llmbench.container.gpus}. */
  String gpus() default "";

  /** {@return host paths mounted in it, as {@code docker run -v}: {@code /host:/in/container[:ro]}} Setting: {@code llmbench.container.volumes}. */
  String[] volumes() default {};

  /** {@return Docker's IPC mode, e.g. {@code host} (vLLM and SGLang need shared memory); empty for Docker's default} Setting: {@code llmbench.container.ipc}. */
  String ipc() default "";

  /** {@return where its output goes; empty for {@code <report dir>/container-<port>.log}} Setting: {@code llmbench.container.log-file}. */
  String logFile() default "";

  /** {@return how long it may take to stop after SIGTERM before it is killed} Setting: {@code llmbench.container.stop-grace}. */
  String stopGrace() default "";
}
