package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.WarmupReport;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a level knows besides its requests: how it was warmed up.
 *
 * @param warmup what the warm-up did; empty when the level had none
 */
@API(status = INTERNAL)
public record LevelExtras(Optional<WarmupReport> warmup) {

  public static final LevelExtras NONE = new LevelExtras(Optional.empty());
}
