package dev.llmbench.launch;

import java.util.List;
import java.util.Locale;

/**
 * What went wrong with Docker or a container, said with its fix: no daemon (or one Testcontainers cannot use), an image
 * that is not there, GPUs the host cannot give, a port taken. Each reads Docker's and Testcontainers' own messages,
 * so that {@link LaunchedContainer} fails with the sentence a user acts on rather than a stack of exceptions.
 */
final class ContainerDiagnosis {

  private ContainerDiagnosis() {}

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
}
