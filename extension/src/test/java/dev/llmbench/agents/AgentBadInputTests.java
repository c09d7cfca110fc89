package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Every bad input of issue #32 (item 7) through the Jupiter engine: each sweep fails before any request of its
 * agents, naming the file, the line, the field and the fix; the server receives no request at all.
 */
class AgentBadInputTests {

  private static final String DIR = AgentTraceReaderTests.DIR;

  private static String error(String method, String file, String rest) {
    return "Configuration error: sweep on method [BadTraceCases#" + method + "]: @AgentTrace(format = LLMBENCH): " + DIR
        + file + rest;
  }

  @Test
  void eachBadTraceFailsItsSweepBeforeAnyRequestWithFileLineFieldAndFix() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(BadTraceCases.class, "llmbench.base-url", stub.url());
      assertThat(run).container("aTurnWhoseParentDoesNotExist(SweepLevelResult)")
          .failedWith(ExtensionConfigurationException.class).hasMessage(error("aTurnWhoseParentDoesNotExist",
              "no-parent.jsonl", " line 2, field \"parent\": \"ghost\" is no session of this file; expected the id of a "
                  + "session of this file that spawns \"b\""));
      assertThat(run).container("aCycleOfParents(SweepLevelResult)")
          .failedWith(ExtensionConfigurationException.class).hasMessage(error("aCycleOfParents", "cycle.jsonl",
              " line 1, field \"parent\": \"b\" closes a cycle of parents: a -> b -> a; expected parents that end at a "
                  + "session without one"));
      assertThat(run).container("aNegativeGap(SweepLevelResult)")
          .failedWith(ExtensionConfigurationException.class).hasMessage(error("aNegativeGap", "negative-gap.jsonl",
              " line 1, field \"tool_ms\": -5 is negative; expected milliseconds, at least 0: a time between turns "
                  + "cannot run backwards"));
      assertThat(run).container("aToolResultForACallNeverMade(SweepLevelResult)")
          .failedWith(ExtensionConfigurationException.class).hasMessage(error("aToolResultForACallNeverMade",
              "tool-without-call.jsonl", " line 2, field \"role\": is \"tool\", a tool result for a call that was never "
                  + "made: turn 0 (line 1) calls no tool; expected \"user\", or tool_ms or tool on the turn before"));
      assertThat(run).container("turnsOutOfOrder(SweepLevelResult)")
          .failedWith(ExtensionConfigurationException.class).hasMessage(error("turnsOutOfOrder", "out-of-order.jsonl",
              " line 2, field \"turn\": is 2: comes after turn 0 of session \"a\" (line 1), its turns out of order; "
                  + "expected turn 1: each session's turns 0, 1, 2, ... in the file's order"));
      assertThat(run.tests().started().count()).isZero();
      assertThat(stub.received()).as("requests the server received").isEmpty();
    }
  }

  @LlmEndpoint
  static class BadTraceCases {
    @ConcurrencySweep({1})
    @AgentTrace(DIR + "no-parent.jsonl")
    void aTurnWhoseParentDoesNotExist(SweepLevelResult r) {}

    @ConcurrencySweep({1})
    @AgentTrace(DIR + "cycle.jsonl")
    void aCycleOfParents(SweepLevelResult r) {}

    @ConcurrencySweep({1})
    @AgentTrace(DIR + "negative-gap.jsonl")
    void aNegativeGap(SweepLevelResult r) {}

    @ConcurrencySweep({1})
    @AgentTrace(DIR + "tool-without-call.jsonl")
    void aToolResultForACallNeverMade(SweepLevelResult r) {}

    @ConcurrencySweep({1})
    @AgentTrace(DIR + "out-of-order.jsonl")
    void turnsOutOfOrder(SweepLevelResult r) {}
  }
}
