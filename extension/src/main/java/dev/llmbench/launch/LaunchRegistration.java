package dev.llmbench.launch;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.spi.Feature;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Server launch in the registry: a test class with {@link LaunchServer} (or {@code llmbench.launch.command}) starts
 * its server as a process, one with {@link LaunchContainer} (or {@code llmbench.container.image}) in a container; the
 * endpoint waits for it, watches it and stops it.
 */
@API(status = INTERNAL)
public final class LaunchRegistration implements Feature {

  @Override
  public String key() {
    return "launch";
  }

  @Override
  public List<Setting<?>> settings() {
    return LaunchKeys.ALL;
  }

  @Override
  public Optional<ServerStart> server(ExtensionContext context) {
    return LaunchSettings.server(context);
  }

  /** The class's process or container, with the candidate's serve parameters applied to its command. */
  @Override
  public Optional<ServerStart> server(ExtensionContext context, DeploymentSpec candidate) {
    return LaunchSettings.server(context, candidate.name(), candidate.serve());
  }
}
