package dev.llmbench;

/**
 * The AssertJ entry point: {@code import static dev.llmbench.LlmBenchAssertions.assertThat;} beside
 * AssertJ's own.
 */
public final class LlmBenchAssertions {

  private LlmBenchAssertions() {}

  public static SweepLevelResultAssert assertThat(SweepLevelResult actual) {
    return new SweepLevelResultAssert(actual, false);
  }

  public static LlmReplyAssert assertThat(LlmReply actual) {
    return new LlmReplyAssert(actual);
  }
}
