package dev.llmbench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.engine.sets.GeneratedSets;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.Traces;
import dev.llmbench.internal.workload.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quality page's words and files, exactly: the slips #35 lists (point 11), each fixed and held here. */
class QualityPageTests {

  static final int N = QualitySectionsTests.ITEMS.size(); // 60

  static EvalPlan plan() {
    return new EvalPlan(GeneratedEvals.set(GeneratedSets.Kind.MIXED, N, 1e-6), 64, 0, 0);
  }

  /** A level at C={@code c} whose reply to item i is wrong where {@code wrong} says, and whose request failed where {@code failed} says. */
  static MeasuredLevel level(int c, String deployment, IntPredicate wrong, IntPredicate failed) {
    Levels l = Levels.closed(c);
    if (!deployment.isEmpty()) l = l.deployment(deployment);
    return l.requests(N, i -> {
      Traces t = Traces.at(i).content(i + 5, i + 9);
      if (failed.test(i)) return t.failed(dev.llmbench.client.ErrorKind.HTTP_STATUS, 500, "overloaded").build().withRequestIndex(i);
      return t.text(wrong.test(i) ? QualitySectionsTests.ITEMS.get(i).wrong() : QualitySectionsTests.ITEMS.get(i).correct()).build()
          .withRequestIndex(i);
    }).build();
  }

  static FeatureSection sweep(QualityFeature feature, MeasuredLevel... levels) {
    SweepRun sweep = new SweepRun(QualityPageTests.class, "page", Listeners.none());
    sweep.add(feature);
    for (MeasuredLevel l : levels) sweep.measured(l);
    return feature.sweep(sweep, List.of(levels)).orElseThrow();
  }

  @Test
  void qualityItemsHoldTheWholeReplyNotItsFirst80Characters() throws Exception {
    String working = "First, 17 apples and 25 more make 42 apples. Then we give none away, so the basket still holds "
        + "them all.\n#### 42";
    MeasuredLevel level = Levels.closed(1).requests(1, i -> Traces.at(0).content(5, 9).text(working).build()
        .withRequestIndex(0)).build();
    FeatureSection page = sweep(new QualityFeature(plan(), List.of()), level);
    byte[] items = page.attachments().stream().filter(a -> a.name().equals("quality-items")).findFirst().orElseThrow().body();
    JsonNode item = new ObjectMapper().readTree(new String(items, StandardCharsets.UTF_8)).get("C=1").get(0);
    assertThat(working).hasSizeGreaterThan(80);
    assertThat(item.get("reply").asText()).isEqualTo(working);
  }

  @Test
  void theAnswersAccuraciesAreOverTheSamePairedItemsAsTheRecoveryAndItsSpeedRatiosCarryIntervals() {
    // fp8 wrong on items 0, 10, ..., 50; int4 wrong on every fifth, and its requests for items 1-3 failed: 57 pairs,
    // on which fp8 has 51 right (89.5%; 90.0% over its own 60) and int4 45 (78.9%): recovery 45 / 51 = 88.2%.
    MeasuredLevel fp8 = level(4, "fp8", i -> i % 10 == 0, i -> false);
    MeasuredLevel int4 = level(4, "int4", i -> i % 5 == 0, i -> i >= 1 && i <= 3);
    FeatureSection page = sweep(new QualityFeature(plan(), List.of("fp8", "int4")), fp8, int4);
    assertThat(page.findings().get(0)).matches(Messages.pattern("[C=4] int4 recovers 88.2% [{n}%, {n}%] of fp8's accuracy "
        + "(78.9% against 89.5% on the 57 items graded on both; 6 items lost, 0 gained, McNemar p = 0.031) at {n}x [{n}x, {n}x] "
        + "its output throughput"));
  }

  @Test
  void aDropUnderLoadThatTheTestCannotTellFromChanceIsNoDropBeyondNoiseNotAccuracyThatHolds() {
    QualityFeature one = new QualityFeature(plan(), List.of());
    // Five items lost at C=8, none gained: every flip one way, p = 2 / 2^5 = 0.0625 (written 0.063).
    assertThat(sweep(one, level(1, "", i -> false, i -> false), level(8, "", i -> i < 5, i -> false)).console())
        .contains("accuracy shows no drop beyond noise under load: 100.0% at C=1, 91.7% at C=8 on the 60 items graded at "
            + "both (5 items lost, 0 gained, McNemar p = 0.063)");
    // Six lost: p = 2 / 2^6 = 0.031, beyond noise.
    assertThat(sweep(one, level(1, "", i -> false, i -> false), level(8, "", i -> i < 6, i -> false)).console())
        .contains("accuracy falls under load: 100.0% at C=1, 90.0% at C=8 on the 60 items graded at both (6 items lost, 0 "
            + "gained, McNemar p = 0.031): the same questions answered worse under load point to the serving (batching, KV "
            + "cache, preemption, numerics of large batches), not the model");
    // As many gained as lost: it holds.
    assertThat(sweep(one, level(1, "", i -> i < 2, i -> false), level(8, "", i -> i >= 2 && i < 4, i -> false)).console())
        .contains("accuracy holds under load: 96.7% at C=1, 96.7% at C=8 on the 60 items graded at both (2 items lost, 2 "
            + "gained, McNemar p = 1.0)");
  }

  @Test
  void theComparisonHasOneKeyInTheLevelsJsonAndTheSweeps() {
    MeasuredLevel fp8 = level(4, "fp8", i -> i % 10 == 0, i -> false);
    MeasuredLevel int4 = level(4, "int4", i -> i % 5 == 0, i -> false);
    QualityFeature feature = new QualityFeature(plan(), List.of("fp8", "int4"));
    SweepRun run = new SweepRun(QualityPageTests.class, "keys", Listeners.none());
    run.add(feature);
    run.measured(fp8);
    run.measured(int4);
    JsonNode level = feature.level(run, int4).orElseThrow().json().orElseThrow();
    JsonNode sweep = feature.sweep(run, List.of(fp8, int4)).orElseThrow().json().orElseThrow();
    assertThat(level.get("vs_reference").get("reference").asText()).isEqualTo("fp8");
    assertThat(sweep.get("levels").get(1).get("vs_reference").get("reference").asText()).isEqualTo("fp8");
    assertThat(level.has("vs_fp8")).isFalse();
  }

  @Test
  void aLineThatIsNotJsonSaysItsLineOnceNotTheParsersLineOneColumnOne(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("evals.jsonl");
    String row = "{\"prompt\": \"What is 2 + 2?\", \"grader\": \"number\", \"expected\": \"4\"}\n";
    Files.writeString(f, row.repeat(4) + "{\"prompt\": \"What is 3 + 3?\", \"grader\": \"number\"\n");
    assertThatThrownBy(() -> EvalFiles.read(f, EvalFiles.Format.GENERIC, 0, 0)).isInstanceOf(BadInputException.class)
        .hasMessage(f + " line 5: not JSON (Unexpected end-of-input: expected close marker for Object (opened at "
            + "column 1)); expected one JSON object per line, like {\"prompt\": \"...\", \"expected\": \"...\", "
            + "\"grader\": \"exact\"}");
  }
}
