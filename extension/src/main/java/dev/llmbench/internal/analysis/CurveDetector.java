package dev.llmbench.internal.analysis;

import dev.llmbench.result.Finding;
import java.util.Optional;

/** A detector of one finding over a whole curve. */
non-sealed interface CurveDetector extends Detector {

  Optional<Finding> detect(Curve curve);
}
