package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test JVMs of one build (Surefire's forks) share one overview; an earlier build's sweeps are not on it. */
class RunSweepsTests {

  @TempDir
  Path root;

  @Test
  void twoJvmsOfOneRunListEachOthersSweepsAndAnEarlierRunsAreLeftOut() throws IOException {
    new RunSweeps(root, "1-100").add(summary("EarlierTest"), "a.EarlierTest.sweep");
    RunSweeps first = new RunSweeps(root, "2-200");
    RunSweeps second = new RunSweeps(root, "2-200");
    first.add(summary("FirstForkTest"), "a.FirstForkTest.sweep");
    second.add(summary("SecondForkTest"), "a.SecondForkTest.sweep");

    String page = Files.readString(RunSweeps.page(root));
    assertThat(page).contains("<h2>2 sweeps: 2 passed</h2>")
        .contains("<a href=\"a.FirstForkTest.sweep/index.html\">FirstForkTest.<wbr>sweep</a>")
        .contains("<a href=\"a.SecondForkTest.sweep/index.html\">SecondForkTest.<wbr>sweep</a>").doesNotContain("EarlierTest");
    assertThat(first.read()).extracting(RunOverview.Row::title).containsExactly("FirstForkTest.sweep", "SecondForkTest.sweep");
    assertThat(first.read().get(0).headline()).isEqualTo(RunOverview.Row.of(summary("FirstForkTest"), "x").headline());
  }

  /** An embeddings sweep produces no output tokens: its headline is its peak of embedded texts per second, not 0 tok/s. */
  @Test
  void anEmbeddingsSweepsHeadlineIsItsInputsPerSecond() {
    MeasuredLevel one = Levels.closed(1).request(Traces.at(0).content(20, 40).embeddings(8).build())
        .request(Traces.at(50).content(70, 90).embeddings(8).build()).build();
    MeasuredLevel two = Levels.closed(2).request(Traces.at(0).content(20, 30).embeddings(8).build())
        .request(Traces.at(0).content(20, 30).embeddings(8).build()).build();
    SweepRun sweep = new SweepRun("a.EmbeddingsTest", "sweep", Listeners.none());
    sweep.measured(one);
    sweep.measured(two);
    assertThat(one.isEmbeddings()).as("the fixture's levels are embeddings").isTrue();
    assertThat(two.inputThroughput().perSecond()).as("C=2 is the faster").isGreaterThan(one.inputThroughput().perSecond());
    assertThat(RunOverview.Row.of(SweepSummary.of(sweep, List.of(one, two)), "x").headline())
        .startsWith("peak " + two.inputThroughput() + " at C=2").contains(" inputs/s at C=2").doesNotContain("tok/s");
  }

  /** Surefire starts each fork through {@code sh -c}: the run is the build's process above it, which every fork shares. */
  @Test
  void theRunIsTheBuildProcessAboveThisJvmNotAShell() {
    long pid = Long.parseLong(RunSweeps.runId().split("-")[0]);
    assertThat(pid).as("a process above this JVM").isNotEqualTo(ProcessHandle.current().pid());
    String command = ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("");
    assertThat(Path.of(command).getFileName().toString()).as(command).isNotIn("sh", "dash", "bash", "zsh");
  }

  private static SweepSummary summary(String testClass) {
    MeasuredLevel level = Levels.closed(1).request(Traces.at(0).content(20, 40).usage(10, 2).build())
        .request(Traces.at(50).content(70, 90).usage(10, 2).build()).build();
    SweepRun sweep = new SweepRun("a." + testClass, "sweep", Listeners.none());
    sweep.measured(level);
    return SweepSummary.of(sweep, List.of(level));
  }
}
