package dev.llmbench.launch;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategyTarget;
import org.testcontainers.utility.DockerImageName;

/**
 * A server running in a container that Testcontainers started: host network, the spec's command, environment,
 * GPUs and mounts. Its output (both streams, line by line as Docker delivers them) is written to a log file,
 * which {@link ServerLog} follows as it follows a launched process's, so the startup phases, the last lines
 * of an early exit and the log file are the same. Testcontainers neither waits nor checks the start: the
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
  private final LogWriter writer;
  private final ServerLog log;
  private final long launchedAtNanos;
  private final Thread exitHook;
  private String stopped;

  private LaunchedContainer(ContainerSpec spec, GenericContainer<?> container, DockerClient docker, LogWriter writer,
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
    LogWriter writer = LogWriter.open(logFile);
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
      throw new ServerLaunchException(startFailure(spec, e, imageThere), e);
    }
    return new LaunchedContainer(spec, container, docker, writer, log, launchedAt);
  }

  private static GenericContainer<?> configure(ContainerSpec spec, LogWriter writer) {
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
      throw new ServerLaunchException(noDocker(spec, e, System.getenv("DOCKER_HOST"),
          Files.exists(Path.of("/var/run/docker.sock"))), e);
    }
  }

  /** Why Testcontainers found no Docker to use, and the fix. */
  static String noDocker(ContainerSpec spec, Throwable e, String dockerHost, boolean socketExists) {
    String causes = causes(e);
    if (causes.toLowerCase(Locale.ROOT).contains("ryuk")) {
      // Testcontainers starts its resource reaper, an image from a registry, when it first connects.
      return "a Docker daemon answers, but Testcontainers could not start its resource reaper (Ryuk), an image it pulls "
          + "from a registry (" + causes + "), so the container " + spec.image() + " cannot start: where no registry "
          + "is reachable, set the environment variable TESTCONTAINERS_RYUK_DISABLED=true (LLMBench stops and removes "
          + "its containers itself), or load that image onto the Docker host (docker load)";
    }
    if (causes.toLowerCase(Locale.ROOT).contains("network bridge not found")) {
      return "a Docker daemon answers but has no bridge network (dockerd --bridge=none), which Testcontainers looks "
          + "up, running in a container itself, to find the daemon's address (" + causes + "), so the container "
          + spec.image() + " cannot start: set the environment variable TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 "
          + "(the containers share the host's network)";
    }
    return "no Docker daemon answers, so the container " + spec.image() + " cannot start: Testcontainers found no "
        + "working Docker environment (" + causes + "; DOCKER_HOST is " + (dockerHost == null ? "unset" : dockerHost)
        + ", /var/run/docker.sock " + (socketExists ? "exists" : "does not exist") + "). Start the Docker daemon "
        + "(sudo systemctl start docker, or dockerd; in this project's CI: bash scripts/containers.sh start) or set "
        + "DOCKER_HOST to one that runs, then check with docker info";
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
      throw new ServerLaunchException(startFailure(spec, e, false), e);
    }
    if (!imageIsThere(docker, spec.image())) {
      throw new ServerLaunchException(startFailure(spec, new IllegalStateException("the pull ended without it"), false), null);
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

  /** Why Testcontainers could not start it, and the fix; the causes' messages are Docker's own. */
  static String startFailure(ContainerSpec spec, Throwable e, boolean imageThere) {
    String causes = causes(e);
    String lower = causes.toLowerCase(Locale.ROOT);
    String head = "the container " + spec.describe() + " could not be started: " + causes;
    if (!imageThere) {
      return "the image " + spec.image() + " is not on this Docker host and could not be pulled (" + causes + "). "
          + "Pull it (docker pull " + spec.image() + "), build or import it (docker build, docker import), or name an "
          + "image that docker images lists";
    }
    if (lower.contains("could not select device driver") || lower.contains("nvidia")) {
      return head + ". The container asks for GPUs (" + spec.gpus() + "): install the NVIDIA container toolkit on the "
          + "Docker host (nvidia-ctk runtime configure --runtime=docker, then restart dockerd), or ask for no GPU";
    }
    return head + ". Try it by hand: " + spec.dockerRun();
  }

  private static String causes(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
      if (s.indexOf(m) < 0) s.append(s.length() == 0 ? "" : ": ").append(m);
    }
    return s.toString();
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
    throw exited(code == null ? -1 : code.intValue(), fix(log.recentLines()));
  }

  private ServerExitedException exited(int code, String fix) {
    return new ServerExitedException("the container " + shortId() + " (" + spec.describe() + ")", code, sinceLaunch(),
        writer.file(), log.recentLines(), log.phases(), fix);
  }

  /** The fix for an exit, from its last lines: a port taken, else how to run the same container by hand. */
  static String fix(List<String> lastLines) {
    String text = String.join("\n", lastLines).toLowerCase(Locale.ROOT);
    if (text.contains("address already in use") || text.contains("couldn't bind") || text.contains("could not bind")
        || text.contains("failed to bind") || text.contains("bind: address")) {
      return "Its port is taken by another process (the container shares this host's network): stop what listens "
          + "there (ss -ltnp shows it), or let LLMBench pick a free port with ${port} in the command.";
    }
    return "";
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

  /** Writes each frame of the container's output to the log file as Docker delivers it; notes the stream's end. */
  private static final class LogWriter {
    private final Path file;
    private final OutputStream out;
    private final CountDownLatch ended = new CountDownLatch(1);
    private boolean closed;
    private boolean failed;

    private LogWriter(Path file, OutputStream out) {
      this.file = file;
      this.out = out;
    }

    static LogWriter open(Path file) {
      try {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        return new LogWriter(file, Files.newOutputStream(file)); // replaced, as a launched process's log is
      } catch (IOException e) {
        throw new ServerLaunchException("cannot write the container's log " + file + ": " + e, e);
      }
    }

    Path file() {
      return file;
    }

    synchronized void accept(OutputFrame frame) {
      if (frame.getType() == OutputFrame.OutputType.END) {
        ended.countDown();
        return;
      }
      byte[] bytes = frame.getBytes();
      if (closed || failed || bytes == null) return;
      try {
        out.write(bytes);
        out.flush(); // the tail reads the file: each line as it comes
      } catch (IOException e) {
        failed = true; // a full disk must not stop the server; the log simply ends
      }
    }

    void awaitEnd(Duration limit) {
      try {
        ended.await(limit.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    synchronized void close() {
      if (closed) return;
      closed = true;
      try {
        out.close();
      } catch (IOException ignored) {
        // Everything written was flushed line by line.
      }
    }
  }
}
