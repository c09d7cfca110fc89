package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ClientLoad;
import dev.llmbench.WarmupReport;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a level knows besides its requests: how it was warmed up, and what measuring it cost the client.
 *
 * @param warmup     what the warm-up did; empty when the level had none
 * @param clientLoad the client's own CPU, wake-up lag and events read; empty when not measured
 */
@API(status = INTERNAL)
public record LevelExtras(Optional<WarmupReport> warmup, Optional<ClientLoad> clientLoad) {

  public static final LevelExtras NONE = new LevelExtras(Optional.empty(), Optional.empty());
}
