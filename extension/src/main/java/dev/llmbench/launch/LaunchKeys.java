package dev.llmbench.launch;

import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.SettingKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The settings of a server the run starts, as a process or in a container, declared beside it ({@link LaunchRegistration}). */
final class LaunchKeys {

  private LaunchKeys() {}

  static final Setting<LaunchCommand> LAUNCH_COMMAND = new Setting<>("llmbench.launch.command", "", "none",
      "start the server as a process, e.g. `vllm serve Qwen/Qwen2.5-7B --port ${port}` (quotes as in a shell, no "
          + "shell runs; `${port}` becomes a free port)", LaunchCommand::parse);
  static final Setting<Path> LAUNCH_WORKING_DIR = new Setting<>("llmbench.launch.working-dir", "", "the JVM's",
      "where the launched server runs", Path::of);
  static final Setting<Map<String, String>> LAUNCH_ENV = new Setting<>("llmbench.launch.env", "", "none",
      "extra environment of the launched server, `NAME=value` words", LaunchCommand::parseEnvironment);
  static final Setting<Path> LAUNCH_LOG_FILE = new Setting<>("llmbench.launch.log-file", "",
      "`<report dir>/server-<port>.log`", "where the launched server's output goes", Path::of);
  static final Setting<Duration> LAUNCH_STOP_GRACE = new Setting<>("llmbench.launch.stop-grace", "30s", null,
      "how long the launched server may take to stop after SIGTERM before it is killed", SettingKeys::notNegative);
  static final Setting<String> CONTAINER_IMAGE = new Setting<>("llmbench.container.image", "", "none",
      "start the server in a container of this image instead (Testcontainers, host network; [containers.md]"
          + "(containers.md)), e.g. `vllm/vllm-openai:v0.11.0`", t -> t);
  static final Setting<List<String>> CONTAINER_COMMAND = new Setting<>("llmbench.container.command", "",
      "the image's", "the arguments after the image, e.g. `--model Qwen/Qwen2.5-7B --port ${port}` (quotes as in a "
          + "shell; `${port}` becomes a free port)", LaunchCommand::words);
  static final Setting<List<String>> CONTAINER_ENV = new Setting<>("llmbench.container.env", "", "none",
      "variables set in the container, `NAME=value` words, or `NAME` alone to pass this JVM's value (never printed)",
      LaunchCommand::words);
  static final Setting<GpuRequest> CONTAINER_GPUS = new Setting<>("llmbench.container.gpus", "", "none",
      "GPUs the container asks for, as `docker run --gpus` takes them: `all`, a count such as `2`, or `device=0,1`",
      GpuRequest::parse);
  static final Setting<List<Bind>> CONTAINER_VOLUMES = new Setting<>("llmbench.container.volumes", "", "none",
      "host paths mounted in the container, `/host/path:/container/path[:ro]` words", t -> Bind.parseAll(LaunchCommand.words(t)));
  static final Setting<String> CONTAINER_IPC = new Setting<>("llmbench.container.ipc", "", "Docker's",
      "the container's IPC mode, e.g. `host`, as vLLM and SGLang want for their shared memory", t -> t);
  static final Setting<Path> CONTAINER_LOG_FILE = new Setting<>("llmbench.container.log-file", "",
      "`<report dir>/container-<port>.log`", "where the container's output goes", Path::of);
  static final Setting<Duration> CONTAINER_STOP_GRACE = new Setting<>("llmbench.container.stop-grace", "30s", null,
      "how long the container may take to stop after SIGTERM (`docker stop`) before it is killed; it is removed then",
      SettingKeys::notNegative);

  /** In the order of the settings table. */
  static final List<Setting<?>> ALL = List.of(LAUNCH_COMMAND, LAUNCH_WORKING_DIR, LAUNCH_ENV, LAUNCH_LOG_FILE,
      LAUNCH_STOP_GRACE, CONTAINER_IMAGE, CONTAINER_COMMAND, CONTAINER_ENV, CONTAINER_GPUS, CONTAINER_VOLUMES,
      CONTAINER_IPC, CONTAINER_LOG_FILE, CONTAINER_STOP_GRACE);
}
