package com.example;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import org.junit.jupiter.api.Test;

/**
 * Benchmarks an OpenAI-compatible server. With no URL, LLMBench starts its embedded engine on 127.0.0.1, so
 * this runs anywhere; point it at your server with {@code mvn test -Dllmbench.base-url=http://host:8000}.
 */
@LlmEndpoint
class ModelServerBenchmarkTest {

  /** A smoke prompt: is the model answering, and answering right? */
  @Test
  void knowsTheCapitalOfFrance(LlmClient llm) {
    assertThat(llm.chat("What is the capital of France? Answer in one sentence.")).contentContains("Paris");
  }

  /** One test per level (C=1, C=4); after the last, the table, the analysis and charts in target/llmbench/. */
  @ConcurrencySweep({1, 4})
  @Workload(maxTokens = 16)
  @Slo(ttft = "2s", percentile = 90)
  void throughput(SweepLevelResult level) {
    assertThat(level).hasNoErrors().meetsSlo();
  }
}
