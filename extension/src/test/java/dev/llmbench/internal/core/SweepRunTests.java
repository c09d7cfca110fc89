package dev.llmbench.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The seam features plug into: what a sweep asks its features, once, in their order, and what it does with the answers. */
class SweepRunTests {

  static MeasuredLevel level(String label) {
    return Levels.closed(1).label(label).requests(2, i -> Traces.at(i).content(5, 9).build()).build();
  }

  /** Counts what it is asked, and fails a level whose label it was given. */
  static final class Counting implements SweepFeature {
    final String key;
    final String failing;
    final AtomicInteger levelCalls = new AtomicInteger();
    final AtomicInteger sweepCalls = new AtomicInteger();

    Counting(String key, String failing) {
      this.key = key;
      this.failing = failing;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
      levelCalls.incrementAndGet();
      return Optional.of(FeatureSection.titled(key).withConsole(List.of(key + " " + level.label()))
          .withViolations(level.label().equals(failing) ? List.of(key + " fails " + level.label()) : List.of()));
    }

    @Override
    public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
      sweepCalls.incrementAndGet();
      return Optional.of(FeatureSection.titled(key).withFindings(List.of(key + " saw " + levels.size())));
    }

    @Override
    public Map<Class<?>, Object> parameters(SweepRun sweep, MeasuredLevel level) {
      return Map.of(String.class, key);
    }
  }

  @Test
  void sectionsComeOncePerLevelAndFeatureInTheOrderAddedWithTheFeaturesKey() {
    SweepRun sweep = new SweepRun(SweepRunTests.class, "sweep", Listeners.none());
    Counting a = new Counting("a", "C=2");
    Counting b = new Counting("b", "C=2");
    sweep.add(a);
    sweep.add(b);
    MeasuredLevel one = level("C=1");
    MeasuredLevel two = level("C=2");
    assertThat(sweep.sections(one)).extracting(FeatureSection::key).containsExactly("a", "b");
    assertThat(sweep.sections(one)).flatExtracting(FeatureSection::console).containsExactly("a C=1", "b C=1");
    assertThat(a.levelCalls).hasValue(1);
    assertThat(sweep.violations(one)).isEmpty();
    assertThat(sweep.violations(two)).containsExactly("a fails C=2", "b fails C=2");
    assertThat(sweep.parameters(one)).containsExactly(Map.entry(String.class, "a"));
  }

  @Test
  void theSweepsSectionsAreAskedAgainForOtherLevelsNeverTakenFromAnEarlierAnswer() {
    SweepRun sweep = new SweepRun(SweepRunTests.class, "sweep", Listeners.none());
    Counting a = new Counting("a", "");
    sweep.add(a);
    MeasuredLevel one = level("C=1");
    MeasuredLevel two = level("C=2");
    assertThat(sweep.sections(List.of(one))).flatExtracting(FeatureSection::findings).containsExactly("a saw 1");
    assertThat(sweep.sections(List.of(one, two))).flatExtracting(FeatureSection::findings).containsExactly("a saw 2");
    assertThat(sweep.sections(List.of(one, two))).flatExtracting(FeatureSection::findings).containsExactly("a saw 2");
    assertThat(a.sweepCalls).hasValue(2);
  }

  @Test
  void aFeatureThatFailsAtTheEndKeepsNeitherTheOthersNorTheReportsFromRunning() {
    List<String> heard = new ArrayList<>();
    BenchListener reports = new BenchListener() {
      @Override
      public void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
        heard.add("reports " + levels.size());
      }
    };
    SweepRun sweep = new SweepRun(SweepRunTests.class, "sweep", reports);
    sweep.add(new SweepFeature() {
      @Override
      public String key() {
        return "failing";
      }

      @Override
      public void ended(SweepRun s, List<MeasuredLevel> levels) {
        throw new IllegalStateException("could not save");
      }
    });
    sweep.add(new SweepFeature() {
      @Override
      public String key() {
        return "saving";
      }

      @Override
      public void ended(SweepRun s, List<MeasuredLevel> levels) {
        heard.add("saved " + levels.size());
      }
    });
    sweep.measured(level("C=1"));
    assertThatThrownBy(sweep::finish).isInstanceOf(IllegalStateException.class).hasMessage("could not save");
    assertThat(heard).containsExactly("saved 1", "reports 1");
  }
}
