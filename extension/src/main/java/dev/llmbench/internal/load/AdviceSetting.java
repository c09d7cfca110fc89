package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A setting a finding's advice asks the user to change, known by the annotation attribute the advice names (house
 * style: every step names its {@code @Annotation(attribute = value)}). Before a finding gives a step, each of its levels
 * is asked whether it takes that setting ({@link AdviceTaker}): a sessions level counts sessions, not rounds; a level
 * that sent {@code ignore_eos} on every request needs no advice to send it.
 */
@API(status = INTERNAL)
public enum AdviceSetting {
  /** {@code @Measurement(rounds = N)}: a closed loop's whole rounds, a count of requests. */
  MEASUREMENT_ROUNDS("@Measurement(rounds", WorkloadSource.Beside.REQUEST_COUNT),
  /** {@code @Measurement(requests = N)}: a count of requests. */
  MEASUREMENT_REQUESTS("@Measurement(requests", WorkloadSource.Beside.REQUEST_COUNT),
  /** {@code @Workload(ignoreEos = true)}: every request generates its {@code max_tokens}. */
  IGNORE_EOS("ignoreEos = true", null),
  /** {@code @Workload(prefixCache = AVOID)}: each level's prompts out of the others' cache. */
  PREFIX_CACHE_AVOID("prefixCache = AVOID", null);

  private final String named;
  private final WorkloadSource.Beside beside;

  AdviceSetting(String named, WorkloadSource.Beside beside) {
    this.named = named;
    this.beside = beside;
  }

  /** What the level's workload source must take beside it for this setting to apply; empty for none. */
  public Optional<WorkloadSource.Beside> beside() {
    return Optional.ofNullable(beside);
  }

  /** The setting a step of advice changes, by the attribute it names; empty for advice that changes no setting. */
  public static Optional<AdviceSetting> of(String step) {
    for (AdviceSetting s : values()) {
      if (step.contains(s.named)) return Optional.of(s);
    }
    return Optional.empty();
  }
}
