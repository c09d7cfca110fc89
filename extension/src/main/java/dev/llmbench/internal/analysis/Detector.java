package dev.llmbench.internal.analysis;



/**
 * Reads one kind of finding off a {@link Curve}. A {@link CurveDetector} reads the whole curve, a {@link StepDetector}
 * each step from one level to the next; {@link ScalingAnalysis} runs them in the order the reading lists them.
 */
sealed interface Detector permits CurveDetector, StepDetector {}
