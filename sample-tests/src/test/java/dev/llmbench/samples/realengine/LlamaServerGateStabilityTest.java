package dev.llmbench.samples.realengine;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A sweep on the defaults a new user gets (no {@code @Measurement}, no {@code @Workload}), gated by an SLO, run
 * back to back by {@code scripts/gate-stability.sh} against a llama-server of its own to measure how much a level's
 * throughput moves between two runs. Not a check: it runs only when the script asks for it.
 */
@Tag("real-engine")
@EnabledIfSystemProperty(named = "gate.stability", matches = "true")
@LlmEndpoint(readyTimeout = "2m") // the URL from -Dllmbench.base-url
class LlamaServerGateStabilityTest {

  @ConcurrencySweep({1, 2, 4, 8})
  @Slo(tpot = "60ms", percentile = 90)
  void defaults(SweepLevelResult level) {
    // The figures are the point; the script reads them from sweep.json.
  }
}
