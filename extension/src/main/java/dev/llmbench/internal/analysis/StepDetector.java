package dev.llmbench.internal.analysis;

import dev.llmbench.result.Finding;
import java.util.Optional;

/** A detector of one finding on the step from level {@code i - 1} to level {@code i} of a curve. */
non-sealed interface StepDetector extends Detector {

  /** @param i a level of the curve above its first */
  Optional<Finding> detect(Curve curve, int i);
}
