package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleTableTests {

  @Test
  void rowsReadLikeTheFamiliarSweepScriptAndStarThinPercentiles() {
    String table = ConsoleTable.render(List.of(ResultJsonTests.level(1), ResultJsonTests.level(2)));
    String[] lines = table.split("\n");
    // The header names TPOT and ITL as vllm bench serve prints them.
    assertThat(lines[0]).isEqualTo("level | ok/sent (err) | wall | Output token throughput (tok/s) | E2E latency (s) avg p50 p99 "
        + "| TTFT (s) avg p99 | Mean, Median, P99 TPOT (ms) | Mean, Median, P99 ITL (ms)");
    // level(1): 2 requests, 0..55 ms, 8 tokens: 145.5 tok/s; each 50 ms end to end, TTFT 20 ms, 4 tokens: TPOT 30/3 ms.
    assertThat(lines[1]).isEqualTo(
        "C= 1 | 2/2 ok (0 err) | wall=  0.1s |  145.5 tok/s | lat avg= 0.05 p50= 0.05 p99= 0.05* | ttft avg= 0.02 p99= 0.02* "
            + "| tpot mean= 10.0 median= 10.0 p99= 10.0* | itl mean= 10.0 median= 10.0 p99= 10.0*");
    assertThat(lines[2]).startsWith("C= 2 | 4/4 ok (0 err)");
    // level(2) sends its 4 requests 5 ms apart: 2 in flight from 5 ms to 60 ms, when 15 of its 16 tokens came.
    assertThat(lines[3]).isEqualTo("C= 2 | steady 272.7 tok/s with all 2 in flight for 0.06 of 0.07 s (ramp 0.01 s, "
        + "drain 0.01 s); the window's 246.2 tok/s is off by more than its noise");
    assertThat(lines[4]).isEqualTo("* p99 of fewer than 100 requests is only their maximum");
  }
}
