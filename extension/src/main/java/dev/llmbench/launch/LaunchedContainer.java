package dev.llmbench.launch;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategyTarget;
import org.testcontainers.utility.DockerImageName;

/**
 * A server running in a container that Testcontainers started: host network, the spec's command, environment,
 * GPUs and mounts. Its output (both streams, line by line as Docker delivers them) is written to a log file by a
 * {@link ContainerLogWriter}, which {@link ServerLog} follows as it follows a launched process's, so the startup
 * phases, the last lines of an early exit and the log file are the same; a failure is worded by
 * {@link ContainerDiagnosis}. Testcontainers neither waits nor checks the start: the
 * endpoint's readiness wait does both, and sees an exit through {@link #checkRunning}.
 *
 * <p>Stopping is {@code docker stop} (SIGTERM, SIGKILL after the grace period), then removal: the run leaves
 * no container behind, also without Testcontainers' reaper (Ryuk), and a JVM hook does the same at exit.
 */
final class LaunchedContainer implements RunningServer {

  /** How long the log stream may take to end after the container exited, so that its last lines are in the file. */
  private static final Duration LOG_END_WAIT = Duration.ofSeconds(2);
  private static final Duration EXIT_STOP_GRACE = Duration.ofSeconds(3);

  private final ContainerSpec spec;
  private final GenericContainer<?> container;
  private final DockerClient docker;
  /** Kept apart: Testcontainers forgets it once the container is stopped. */
  private final String id;
  private final ContainerLogWriter writer;
  private final ServerLog log;
  private final long launchedAtNanos;
  private final Thread exitHook;
  private String stopped;

  private LaunchedContainer(ContainerSpec spec, GenericContainer<?> container, DockerClient docker, ContainerLogWriter writer,
      ServerLog log, long launchedAtNanos) {
    this.spec = spec;
    this.container = container;
    this.docker = docker;
    this.id = container.getContainerId();
    this.writer = writer;
    this.log = log;
    this.launchedAtNanos = launchedAtNanos;
    // A run that ends without closing its store (Ctrl+C, a killed fork) must not leave a GPU container behind.
    this.exitHook = new Thread(() -> stop(EXIT_STOP_GRACE), "llmbench-stop-container " + shortId());
    Runtime.getRuntime().addShutdownHook(exitHook);
  }

  static LaunchedContainer start(ContainerSpec spec, Path logFile, int recentLines) {
    DockerClient docker = dockerClient(spec);
    pullIfMissing(docker, spec);
    ContainerLogWriter writer = ContainerLogWriter.open(logFile);
    GenericContainer<?> container = configure(spec, writer);
    long launchedAt = System.nanoTime();
    ServerLog log = ServerLog.ofLaunched(logFile, launchedAt, recentLines);
    try {
      container.start();
    } catch (RuntimeException e) {
      boolean imageThere = imageIsThere(docker, spec.image());
      removeQuietly(container);
      log.close();
      writer.close();
      throw new ServerLaunchException(ContainerDiagnosis.startFailure(spec, e, imageThere), e);
    }
    return new LaunchedContainer(spec, container, docker, writer, log, launchedAt);
  }

  private static GenericContainer<?> configure(ContainerSpec spec, ContainerLogWriter writer) {
    GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(spec.image()));
    c.withNetworkMode("host")
        .withEnv(spec.environment())
        .withStartupCheckStrategy(new NoStartupCheck())
        .waitingFor(new NoWait())
        .withLogConsumer(writer::accept);
    if (!spec.command().isEmpty()) c.withCommand(spec.command().toArray(String[]::new));
    for (Bind b : spec.binds()) c.withFileSystemBind(b.hostPath(), b.containerPath(), b.readOnly() ? BindMode.READ_ONLY : BindMode.READ_WRITE);
    if (!spec.gpus().isNone() || !spec.ipc().isEmpty()) {
      c.withCreateContainerCmdModifier(cmd -> {
        HostConfig host = cmd.getHostConfig() == null ? HostConfig.newHostConfig() : cmd.getHostConfig();
        if (!spec.gpus().isNone()) host.withDeviceRequests(List.of(deviceRequest(spec.gpus())));
        if (!spec.ipc().isEmpty()) host.withIpcMode(spec.ipc());
        cmd.withHostConfig(host);
      });
    }
    return c;
  }

  /** {@code docker run --gpus}: a device request with the capability {@code gpu}, by count (-1: all) or by ids. */
  static DeviceRequest deviceRequest(GpuRequest gpus) {
    DeviceRequest r = new DeviceRequest().withCapabilities(List.of(List.of("gpu")));
    return gpus.deviceIds().isEmpty() ? r.withCount(gpus.count()) : r.withDeviceIds(gpus.deviceIds());
  }

  private static DockerClient dockerClient(ContainerSpec spec) {
    try {
      return DockerClientFactory.instance().client();
    } catch (RuntimeException e) {
      throw new ServerLaunchException(ContainerDiagnosis.noDocker(spec, e, System.getenv("DOCKER_HOST"),
          Files.exists(Path.of("/var/run/docker.sock"))), e);
    }
  }

  private static void pull(DockerClient docker, String image) {
    DockerImageName name = DockerImageName.parse(image);
    try {
      docker.pullImageCmd(name.getUnversionedPart()).withTag(name.getVersionPart()).exec(new PullImageResultCallback())
          .awaitCompletion();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while pulling " + image, e);
    }
  }

  /**
   * Pulls the image when the Docker host does not have it, once: Testcontainers would retry a pull that
   * cannot succeed (no registry, a name that does not exist) for minutes before saying so.
   */
  private static void pullIfMissing(DockerClient docker, ContainerSpec spec) {
    if (imageIsThere(docker, spec.image())) return;
    try {
      pull(docker, spec.image());
    } catch (RuntimeException e) {
      throw new ServerLaunchException(ContainerDiagnosis.startFailure(spec, e, false), e);
    }
    if (!imageIsThere(docker, spec.image())) {
      throw new ServerLaunchException(ContainerDiagnosis.startFailure(spec, new IllegalStateException("the pull ended without it"), false), null);
    }
  }

  private static boolean imageIsThere(DockerClient docker, String image) {
    try {
      docker.inspectImageCmd(image).exec();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void removeQuietly(GenericContainer<?> container) {
    try {
      container.stop(); // removes it, if it was created
    } catch (RuntimeException ignored) {
      // Nothing was created, or the daemon went away: nothing to remove from here.
    }
  }

  @Override
  public void checkRunning() {
    InspectContainerResponse.ContainerState state;
    try {
      state = docker.inspectContainerCmd(id).exec().getState();
    } catch (NotFoundException e) {
      throw exited(-1, "The container is gone: something else removed it (docker rm, docker system prune).");
    }
    if (Boolean.TRUE.equals(state.getRunning()) || Boolean.TRUE.equals(state.getRestarting())) return;
    writer.awaitEnd(LOG_END_WAIT);
    log.drain(true); // it has exited: everything it wrote is in the file now
    Long code = state.getExitCodeLong();
    throw exited(code == null ? -1 : code.intValue(), ContainerDiagnosis.fix(log.recentLines()));
  }

  private ServerExitedException exited(int code, String fix) {
    return new ServerExitedException("the container " + shortId() + " (" + spec.describe() + ")", code, sinceLaunch(),
        writer.file(), log.recentLines(), log.phases(), fix);
  }

  @Override
  public Duration sinceLaunch() {
    return Duration.ofNanos(System.nanoTime() - launchedAtNanos);
  }

  @Override
  public ServerLog log() {
    return log;
  }

  @Override
  public String describe() {
    return "container " + shortId() + " (" + spec.describe() + ")";
  }

  String containerId() {
    return id;
  }

  private String shortId() {
    return id.substring(0, Math.min(12, id.length()));
  }

  @Override
  public String stopAndDescribe() {
    return stop(spec.stopGrace());
  }

  /**
   * {@code docker stop} with {@code grace} (SIGTERM, then SIGKILL), then removes the container and reads the
   * rest of its log. Idempotent: a second call returns the first outcome.
   */
  synchronized String stop(Duration grace) {
    if (stopped != null) return stopped;
    if (Thread.currentThread() != exitHook) {
      try {
        Runtime.getRuntime().removeShutdownHook(exitHook);
      } catch (IllegalStateException e) {
        // The JVM is exiting: the hook runs too, and finds this stop done.
      }
    }
    long begin = System.nanoTime();
    String ending;
    try {
      boolean running = isRunning();
      if (running) {
        try {
          docker.stopContainerCmd(id).withTimeout((int) Math.max(1, Math.ceil(grace.toMillis() / 1000.0))).exec();
        } catch (NotModifiedException e) {
          // It stopped between the check and the stop.
        }
      }
      Duration took = Duration.ofNanos(System.nanoTime() - begin);
      Long code = docker.inspectContainerCmd(id).exec().getState().getExitCodeLong();
      String exit = code == null ? "" : ", " + ServerProcess.describeExit(code.intValue());
      if (!running) ending = "had already exited" + exit;
      else if (code != null && code == 137 && took.compareTo(grace) >= 0) {
        ending = "did not stop on SIGTERM; killed with SIGKILL after " + PhaseHistory.seconds(took) + exit;
      } else ending = "stopped with SIGTERM in " + PhaseHistory.seconds(took) + exit;
    } catch (DockerException | IllegalStateException e) {
      ending = "could not be stopped cleanly (" + e.getMessage() + ")";
    }
    writer.awaitEnd(LOG_END_WAIT);
    removeQuietly(container);
    log.close();
    writer.close();
    return stopped = ending + (isGone() ? "; removed" : "; NOT removed: docker rm -f " + id);
  }

  private boolean isRunning() {
    try {
      return Boolean.TRUE.equals(docker.inspectContainerCmd(id).exec().getState().getRunning());
    } catch (NotFoundException e) {
      return false;
    }
  }

  private boolean isGone() {
    try {
      docker.inspectContainerCmd(id).exec();
      return false;
    } catch (NotFoundException e) {
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return describe();
  }

  /** Testcontainers' start succeeds once Docker has started it: an early exit is the readiness wait's to report. */
  private static final class NoStartupCheck extends StartupCheckStrategy {
    @Override
    public StartupStatus checkStartupState(DockerClient dockerClient, String containerId) {
      return StartupStatus.SUCCESSFUL;
    }
  }

  /** The endpoint waits (health route and a 1-token completion, with progress and phases), not Testcontainers. */
  private static final class NoWait implements WaitStrategy {
    @Override
    public void waitUntilReady(WaitStrategyTarget target) {}

    @Override
    public WaitStrategy withStartupTimeout(Duration startupTimeout) {
      return this;
    }
  }
}
