package dev.llmbench.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.SweepLevelResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.opentest4j.TestAbortedException;

/** The test kit's own assertions pass when the run is as stated, and otherwise fail saying what ended how. */
class RunAssertTests {

  static BenchKit.Run mixed;

  @BeforeAll
  static void runTheFixture() {
    mixed = BenchKit.run(MixedTestCases.class);
  }

  @Nested
  @DisplayName("a test picked by its display name")
  class PickedByName {

    @Test
    void passesWhenItEndedAsStated() {
      assertThat(mixed).test("passes()").succeeded();
      assertThat(mixed).test("fails()").failedWith(AssertionError.class).hasMessage("expected 2 but was 3");
      assertThat(mixed).test("aborts()").wasAbortedWith(TestAbortedException.class).hasMessage("Assumption failed: no GPU");
      assertThat(mixed).test("skipped()").wasSkipped().isEqualTo("not today");
    }

    @Test
    void failsNamingHowItEndedWhenItPassedInsteadOfFailing() {
      assertThatThrownBy(() -> assertThat(mixed).level("passes()").failedWith(AssertionError.class))
          .isInstanceOf(AssertionError.class).hasMessage("""
              Expecting passes() of MixedTestCases to fail with java.lang.AssertionError but it ended:
                passes(): passed""");
    }

    @Test
    void failsWithTheActualExceptionWhenItFailedWithAnotherType() {
      assertThatThrownBy(() -> assertThat(mixed).test("fails()").failedWith(IllegalStateException.class))
          .isInstanceOf(AssertionError.class).hasMessage("""
              Expecting fails() of MixedTestCases to fail with java.lang.IllegalStateException but it ended:
                fails(): failed with java.lang.AssertionError: expected 2 but was 3""");
    }

    @Test
    void failsWithActualAndExpectedMessageWhenTheMessageDiffers() {
      assertThatThrownBy(() -> assertThat(mixed).test("fails()").failedWith(AssertionError.class).hasMessage("expected 2"))
          .isInstanceOf(AssertionError.class).hasMessageContaining("[the exception of fails()]")
          .hasMessageContaining("expected 2 but was 3").hasMessageContaining("Expecting message to be:");
    }

    @Test
    void failsListingEveryOutcomeWhenNoTestHasTheName() {
      assertThatThrownBy(() -> assertThat(mixed).level("C=2").succeeded()).isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("Expecting one test named \"C=2\" in the run of MixedTestCases but found 0; every outcome:")
          .hasMessageContaining("  - passes(): passed")
          .hasMessageContaining("  - fails(): failed with java.lang.AssertionError: expected 2 but was 3")
          .hasMessageContaining("  - skipped(): skipped: not today")
          .hasMessageContaining("  - aborts(): aborted with org.opentest4j.TestAbortedException: Assumption failed: no GPU")
          .hasMessageEndingWith("  - [container] RunAssertTests$MixedTestCases: passed");
    }

    @Test
    void failsWhenItWasNotSkipped() {
      assertThatThrownBy(() -> assertThat(mixed).test("aborts()").wasSkipped()).isInstanceOf(AssertionError.class)
          .hasMessage("""
              Expecting aborts() of MixedTestCases to be skipped but it ended:
                aborts(): aborted with org.opentest4j.TestAbortedException: Assumption failed: no GPU""");
    }
  }

  @Nested
  @DisplayName("the run as a whole")
  class WholeRun {

    @Test
    void allTestsPassedFailsListingEveryTestThatDidNot() {
      assertThatThrownBy(() -> assertThat(mixed).allTestsPassed(4)).isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("""
              Expecting all 4 tests of MixedTestCases to pass, but 4 ran and 3 did not pass:
                - aborts(): aborted with org.opentest4j.TestAbortedException: Assumption failed: no GPU
                - fails(): failed with java.lang.AssertionError: expected 2 but was 3
                - skipped(): skipped: not today
              Every outcome:""".replace("\n", System.lineSeparator()));
    }

    @Test
    void allTestsPassedHoldsTheCountToo() {
      BenchKit.Run run = BenchKit.run(PassingTestCases.class);
      assertThat(run).allTestsPassed(2).passed("one()", "two()");
      assertThatThrownBy(() -> assertThat(run).allTestsPassed(3)).isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("Expecting all 3 tests of PassingTestCases to pass, but 2 ran and 0 did not pass:");
    }

    @Test
    void passedNamesTheTestsThatRanAndThoseThatDidNotPass() {
      assertThatThrownBy(() -> assertThat(mixed).passed("passes()", "fails()")).isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("Expecting the tests of MixedTestCases to be [passes(), fails()], each passed, but they "
              + "were [aborts(), fails(), passes(), skipped()] and these did not pass:");
    }

    @Test
    void aConfigurationErrorIsTheSingleFailedContainer() {
      BenchKit.Run run = BenchKit.run(EmptySweepTestCases.class);
      assertThat(run).hasSingleFailedContainer().failedWith(ExtensionConfigurationException.class)
          .hasMessage("Configuration error: sweep on method [EmptySweepTestCases#sweep]: @ConcurrencySweep must list at "
              + "least one level, e.g. @ConcurrencySweep({1, 2, 4, 8})");
      assertThat(run).hasSingleFailure().failedWith(ExtensionConfigurationException.class);
      assertThat(run).hasConfigurationError("Configuration error: sweep on method [EmptySweepTestCases#sweep]: "
          + "@ConcurrencySweep must list at least one level, e.g. @ConcurrencySweep({1, 2, 4, 8})");
      assertThatThrownBy(() -> assertThat(run).hasConfigurationError("Configuration error: something else"))
          .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting message to be:")
          .hasMessageContaining("Configuration error: something else");
      assertThatThrownBy(() -> assertThat(run).hasSingleFailedTest()).isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("Expecting exactly one failed test in the run of EmptySweepTestCases but found 0; "
              + "every outcome:");
    }

    @Test
    void hasSingleFailureFailsWhenThereIsNone() {
      assertThatThrownBy(() -> assertThat(BenchKit.run(PassingTestCases.class)).hasSingleFailure())
          .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting exactly one failure in the run of "
              + "PassingTestCases but found 0");
    }
  }

  @Nested
  @DisplayName("a message with measured numbers")
  class MessagePatterns {

    @Test
    void aPatternTakesTheTextLiterallyAndTheNumbersAsNumbers() {
      String pattern = Messages.pattern("C=2: TTFT p50 {n} ms (needs < 1.0 ms) [{*}]");
      assertThat("C=2: TTFT p50 12.5 ms (needs < 1.0 ms) [x\ny]").matches(pattern);
      assertThat("C=2: TTFT p50 -3 ms (needs < 1.0 ms) []").matches(pattern);
      assertThat("C=2: TTFT p50 ms (needs < 1.0 ms) []").doesNotMatch(pattern);
      assertThat("C=2: TTFT p50 12.5 ms (needs < 1x0 ms) []").as("a dot is a dot").doesNotMatch(pattern);
      assertThat("C=2: TTFT p50 12.5 ms (needs < 1.0 ms) [] and more").as("the whole message").doesNotMatch(pattern);
      String duration = Messages.pattern("TTFT p50 is {duration}, above 1.0 ms");
      assertThat("TTFT p50 is 85.1 ms, above 1.0 ms").matches(duration);
      assertThat("TTFT p50 is 1.204 s, above 1.0 ms").matches(duration);
      assertThat("TTFT p50 is 850 µs, above 1.0 ms").matches(duration);
      assertThat("TTFT p50 is 85.1, above 1.0 ms").as("a duration has its unit").doesNotMatch(duration);
    }
  }

  // ----- fixtures

  @TestMethodOrder(MethodOrderer.MethodName.class)
  static class MixedTestCases {
    @Test
    void passes() {}

    @Test
    void fails() {
      throw new AssertionError("expected 2 but was 3");
    }

    @Test
    @Disabled("not today")
    void skipped() {}

    @Test
    void aborts() {
      assumeTrue(false, "no GPU");
    }
  }

  static class PassingTestCases {
    @Test
    void one() {}

    @Test
    void two() {}
  }

  static class EmptySweepTestCases {
    @ConcurrencySweep({})
    void sweep(SweepLevelResult r) {}
  }
}
