package dev.llmbench.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import org.junit.jupiter.api.Test;

/** The chunks-versus-tokens warning names the figures it affects (#36). */
class LevelWarningsTests {

  @Test
  void chunksFarFromTheServersTokensSayTpotAndThePerUserRateAreAffected() {
    // 3 chunks for 9 tokens each: the server put several tokens in a chunk and did not say how many in the first.
    SweepLevelResult level = Levels.closed(1).requests(2, i -> Traces.at(i * 1000L).content(100, 200, 300).usage(1, 9).build())
        .maxTokens(9).build();
    assertThat(level.warnings()).contains("2 of 2 requests: the server's usage and the number of streamed chunks differ "
        + "by more than 10% (several tokens per chunk, e.g. speculative decoding or a reasoning parser); token counts use "
        + "the server's usage, and TPOT and output tok/s per user are affected (they count one token in the first chunk "
        + "unless the server reports usage per chunk)");
  }
}
