package dev.llmbench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.engine.sets.GeneratedItem;
import dev.llmbench.engine.sets.GeneratedSets;
import dev.llmbench.internal.workload.BadInputException;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The feature's sections from hand-made levels: what every report shows of quality once it iterates features. */
class QualitySectionsTests {

  static final List<GeneratedItem> ITEMS = GeneratedSets.items(GeneratedSets.Kind.MIXED, 60);

  /** A level of {@code deployment} whose reply to item i is right unless {@code wrong} says, unparsed where {@code unparsed} says. */
  static MeasuredLevel level(String deployment, java.util.function.IntPredicate wrong, java.util.function.IntPredicate unparsed) {
    return Levels.closed(4).deployment(deployment).requests(ITEMS.size(), i -> Traces.at(i).content(i + 5, i + 9)
        .text(unparsed.test(i) && ITEMS.get(i).unparsed().isPresent() ? ITEMS.get(i).unparsed().get()
            : wrong.test(i) ? ITEMS.get(i).wrong() : ITEMS.get(i).correct()).build().withRequestIndex(i)).build();
  }

  @Test
  void levelAndSweepSectionsCountUnparsedApartAndListTheFlips() {
    EvalPlan plan = new EvalPlan(GeneratedEvals.set(GeneratedSets.Kind.MIXED, ITEMS.size(), 1e-6), 64, 0, 0);
    QualityFeature feature = new QualityFeature(plan, List.of("fp8", "int4"));
    SweepRun sweep = new SweepRun(QualitySectionsTests.class, "compare", Listeners.none());
    sweep.add(feature);
    MeasuredLevel fp8 = level("fp8", i -> i % 10 == 0, i -> false);
    MeasuredLevel int4 = level("int4", i -> i % 5 == 0, i -> i % 10 == 5);
    sweep.measured(fp8);
    sweep.measured(int4);
    FeatureSection one = feature.level(sweep, int4).orElseThrow();
    JsonNode acc = one.json().orElseThrow().get("accuracy");
    assertThat(acc.get("correct").asInt() + acc.get("wrong").asInt() + acc.get("unparsed").asInt()).isEqualTo(60);
    assertThat(acc.get("unparsed").asInt()).as("items 5, 15, ... that have an unparsed reply").isPositive();
    assertThat(one.json().get().get("vs_reference").get("only_candidate").asInt()).isZero();
    assertThat(one.console()).anySatisfy(l -> assertThat(l).startsWith("C=4 · int4 | quality vs fp8: recovery "));
    FeatureSection all = feature.sweep(sweep, List.of(fp8, int4)).orElseThrow();
    assertThat(all.console().get(0)).startsWith("quality and speed: generated:every-grader, 60 items; reference fp8");
    assertThat(all.findings()).anySatisfy(f -> assertThat(f).startsWith("[C=4] int4 recovers "));
    assertThat(all.lead().orElseThrow()).as("the decision, at the top of the sweep's page").contains(
        "<h3>Quality and speed</h3>", "<th>against fp8,<br>item by item</th>", "<th>recovery (95%)</th>",
        "items that flipped between fp8 and int4", "<svg", "lost");
    assertThat(all.attachments()).extracting(FeatureSection.Attachment::name).containsExactly("quality", "quality-items");
    assertThat(all.violations()).isEmpty();
  }

  @Test
  void eachFormatIsReadAndEachBadRowNamesFileLineAndField(@TempDir Path dir) throws IOException {
    Path mc = dir.resolve("mc.jsonl");
    Files.writeString(mc, "{\"question\": \"Which is even?\", \"choices\": [\"3\", \"4\"], \"answer\": 1}\n");
    EvalSet set = EvalFiles.read(mc, EvalFiles.Format.MULTIPLE_CHOICE, 0, 0);
    assertThat(set.items().get(0).grader().expected()).isEqualTo("B");
    assertThat(set.items().get(0).question()).contains("A) 3\nB) 4\n");
    bad(dir, EvalFiles.Format.MULTIPLE_CHOICE, "{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"answer\": 2}",
        "line 1, field \"answer\": index 2 is out of range for 2 choices");
    bad(dir, EvalFiles.Format.GSM8K, "{\"question\": \"q\", \"answer\": \"#### lots\"}", "field \"answer\": '#### lots' is not a number");
    bad(dir, EvalFiles.Format.GSM8K, "{\"question\": \"q\"}", "field \"answer\": missing");
    bad(dir, EvalFiles.Format.GENERIC, "{\"prompt\": \"q\", \"expected\": \"x\", \"grader\": \"fuzzy\"}",
        "field \"grader\": \"fuzzy\" is no grader; expected one of exact, number, choice, regex, contains, json");
    bad(dir, EvalFiles.Format.GENERIC, "{\"prompt\": \"q\", \"grader\": \"regex\", \"pattern\": \"(\"}", "field \"pattern\": does not compile");
    bad(dir, EvalFiles.Format.GENERIC, "{\"prompt\": \"q\", \"grader\": \"json\", \"schema\": [1]}", "field \"schema\"");
    bad(dir, EvalFiles.Format.GENERIC, "{\"grader\": \"exact\", \"expected\": \"x\"}", "field \"prompt\": missing");
    bad(dir, EvalFiles.Format.GENERIC, "not json", "line 1: not JSON");
    // The rest of docs/quality.md's list of bad input.
    bad(dir, EvalFiles.Format.GSM8K, "{\"answer\": \"#### 2\"}", "line 1, field \"question\": missing");
    bad(dir, EvalFiles.Format.GSM8K, "{\"question\": \"q\", \"answer\": \"two\"}",
        "line 1, field \"answer\": has no final answer after '#### '; expected GSM8K's form");
    bad(dir, EvalFiles.Format.MULTIPLE_CHOICE, "{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"answer\": \"C\"}",
        "line 1, field \"answer\": letter C is out of range for 2 choices");
    bad(dir, EvalFiles.Format.GENERIC, "{\"id\": 7, \"prompt\": \"q\", \"grader\": \"exact\", \"expected\": \"x\"}\n"
        + "{\"id\": 7, \"prompt\": \"r\", \"grader\": \"exact\", \"expected\": \"y\"}", "line 2, field \"id\": \"7\" is the id "
        + "of an earlier row");
    bad(dir, EvalFiles.Format.GENERIC, "", ": holds no rows");
  }

  static void bad(Path dir, EvalFiles.Format format, String row, String says) throws IOException {
    Path f = dir.resolve("bad.jsonl");
    Files.writeString(f, row + "\n");
    assertThatThrownBy(() -> EvalFiles.read(f, format, 0, 0)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(f.toString()).hasMessageContaining(says);
  }
}
