package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A level that says which advice applies to it, from its kind (its workload source, its load) and what it sent: a
 * finding gives a step only to levels that take it, and the level's own source may say what to do instead.
 */
@API(status = INTERNAL)
public interface AdviceTaker {

  /** Whether advice to change {@code setting} applies: the level can take it and has not already. */
  boolean accepts(AdviceSetting setting);

  /** What the level's source advises instead of {@code setting}, which it refuses (e.g. more sessions, not rounds). */
  default Optional<String> instead(AdviceSetting setting) {
    return Optional.empty();
  }
}
