package dev.llmbench.drift;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What {@link Drift} found at one load: each candidate measured there so far against the reference. A level's test
 * method takes it beside its {@code SweepLevelResult}; the last deployment's test at a load sees every candidate.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface Drifts {

  /** {@return the load, such as {@code C=1}} */
  String load();

  /** {@return the reference deployment} */
  String reference();

  /**
   * {@return {@code candidate} against the reference; empty until both are measured at this load}
   *
   * @param candidate a deployment's name
   */
  Optional<DriftComparison> of(String candidate);

  /** {@return every candidate measured at this load so far, in the order declared} */
  List<DriftComparison> all();
}
