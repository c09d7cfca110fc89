package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a level knows besides its requests: how it was warmed up, what measuring it cost the client, and
 * what the suite said about the deployment.
 *
 * @param warmup     what the warm-up did; empty when the level had none
 * @param clientLoad the client's own CPU, wake-up lag and events read; empty when not measured
 * @param deployment the suite's {@code @DeploymentFacts} facts; empty when it gave none
 * @param readings   what the features' {@link LevelRecorder}s read during the level (the GPUs' telemetry), one per type
 */
@API(status = INTERNAL)
public record LevelExtras(Optional<WarmupReport> warmup, Optional<ClientLoad> clientLoad,
    Optional<DeploymentDescription> deployment, List<Object> readings) {

  public LevelExtras {
    readings = List.copyOf(readings);
  }

  public static final LevelExtras NONE = new LevelExtras(Optional.empty(), Optional.empty(), Optional.empty());

  public LevelExtras(Optional<WarmupReport> warmup, Optional<ClientLoad> clientLoad, Optional<DeploymentDescription> deployment) {
    this(warmup, clientLoad, deployment, List.of());
  }

  public LevelExtras(Optional<WarmupReport> warmup, Optional<ClientLoad> clientLoad) {
    this(warmup, clientLoad, Optional.empty());
  }

  /** The reading of {@code type} a recorder made of the level; empty when none did. */
  public <T> Optional<T> reading(Class<T> type) {
    return readings.stream().filter(type::isInstance).map(type::cast).findFirst();
  }
}
