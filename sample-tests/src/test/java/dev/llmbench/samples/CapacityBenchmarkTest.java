package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.Slo;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.capacity.Capacity;
import dev.llmbench.capacity.CapacitySearch;

/**
 * How many concurrent users a deployment serves within its SLO. The search probes a concurrency, and
 * picks the next one by whether the SLO held (each probe is a test: {@code probe 3: C=11}); it ends with
 * the test {@code capacity: C=14}, whose report quotes the levels either side as evidence.
 *
 * <p>The embedded "mla-pcie" engine takes 16.5 ms per decode step plus 0.75 ms per further request in
 * the batch, and 0.15 ms per prompt token admitted in the step: by decode alone TPOT would stay within
 * 35 ms up to 25 requests in flight, but prompts joining the batch slow the steps of the requests already
 * decoding, and the capacity comes out lower (C=14 on the run the README quotes).
 */
@LlmEndpoint(embeddedProfile = "mla-pcie")
class CapacityBenchmarkTest {

  @CapacitySearch(concurrency = {4, 32})
  @Workload(maxTokens = 8)
  @Warmup(requests = 0)
  @Slo(tpot = "35ms", percentile = 90)
  void concurrentUsers(Capacity capacity) {
    assertThat(capacity).isAtLeast(8);
  }
}
