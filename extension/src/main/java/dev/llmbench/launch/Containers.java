package dev.llmbench.launch;

import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerLaunchException;
import java.nio.file.Path;

/**
 * Starts containers, after checking that Testcontainers is on the class path: it is an optional dependency
 * of LLMBench, so this class, which the endpoint calls, names no Testcontainers type; only
 * {@link LaunchedContainer} does, and it is loaded only once the check has passed.
 */
final class Containers {

  static final String TESTCONTAINERS_CLASS = "org.testcontainers.containers.GenericContainer";
  /** The version this LLMBench is built and tested with (the root pom's testcontainers.version). */
  public static final String TESTCONTAINERS_VERSION = "2.0.5";

  private Containers() {}

  /**
   * Starts {@code spec} (resolved: no placeholder left), its output going to {@code logFile}; returns as
   * soon as the container runs: readiness is the endpoint's wait.
   *
   * @throws ServerLaunchException when Testcontainers is missing, no Docker daemon answers, the image is not
   *                               there, or Docker refuses the container; each message says the fix
   */
  public static RunningServer start(ContainerSpec spec, Path logFile, int recentLines) {
    requireTestcontainers(Containers.class.getClassLoader());
    return LaunchedContainer.start(spec, logFile, recentLines);
  }

  /** @throws ServerLaunchException naming the dependency to add when {@code loader} cannot see Testcontainers */
  static void requireTestcontainers(ClassLoader loader) {
    try {
      Class.forName(TESTCONTAINERS_CLASS, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ServerLaunchException("@LaunchContainer (llmbench.container.image) starts the server through "
          + "Testcontainers, which is not on the test class path. Add it as a test dependency: "
          + "<dependency><groupId>org.testcontainers</groupId><artifactId>testcontainers</artifactId><version>"
          + TESTCONTAINERS_VERSION + "</version><scope>test</scope></dependency> (Gradle: testImplementation "
          + "\"org.testcontainers:testcontainers:" + TESTCONTAINERS_VERSION + "\")", e);
    }
  }
}
