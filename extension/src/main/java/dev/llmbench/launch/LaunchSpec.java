package dev.llmbench.launch;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A server the run starts itself.
 *
 * @param command   what to run; may hold {@code ${port}}
 * @param logFile   where its output goes; empty for {@code <report dir>/server-<port>.log}
 * @param stopGrace between SIGTERM and SIGKILL when the run ends
 */
@API(status = INTERNAL)
public record LaunchSpec(LaunchCommand command, Optional<Path> logFile, Duration stopGrace) {}
