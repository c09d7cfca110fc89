package dev.llmbench.quality;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One level's replies, graded item by item.
 *
 * @param outcomes by item index; an item the level did not send is absent
 */
record LevelGrading(EvalSet set, Map<Integer, Outcome> outcomes) {

  /**
   * What became of one item.
   *
   * @param graded the verdict, or empty when its request failed
   * @param reply  the whole reply (quality-items.json holds it: a long working ends with its answer), or the failure
   */
  public record Outcome(EvalItem item, Optional<Graded> graded, String reply) {
    public boolean correct() {
      return graded.map(g -> g.verdict() == Grade.CORRECT).orElse(false);
    }
  }

  public LevelGrading {
    outcomes = Collections.unmodifiableMap(new TreeMap<>(outcomes));
  }

  public static LevelGrading of(EvalSet set, MeasuredLevel level) {
    Map<Integer, Outcome> outcomes = new TreeMap<>();
    for (RequestMetrics m : level.metrics()) {
      RequestTrace t = m.trace();
      if (t.requestIndex() < 0) continue;
      int index = level.plan().workload().prompts().rowIndex(t.requestIndex()) % set.size();
      EvalItem item = set.items().get(index);
      Outcome o = t.succeeded() ? new Outcome(item, Optional.of(item.grader().grade(t.content())), t.content())
          : new Outcome(item, Optional.empty(), t.failure().kind() + ": " + t.failure().message());
      outcomes.putIfAbsent(index, o); // an item sent twice counts once: its first reply
    }
    return new LevelGrading(set, outcomes);
  }

  public Accuracy accuracy() {
    int correct = 0;
    int wrong = 0;
    int unparsed = 0;
    int failed = 0;
    for (Outcome o : outcomes.values()) {
      if (o.graded().isEmpty()) {
        failed++;
        continue;
      }
      switch (o.graded().get().verdict()) {
        case CORRECT -> correct++;
        case WRONG -> wrong++;
        case UNPARSED -> unparsed++;
      }
    }
    return new Accuracy(correct, wrong, unparsed, failed, QualityStats.wilson(correct, correct + wrong + unparsed));
  }

  /** Accuracy per grader name, for a set of several graders. */
  public Map<String, Accuracy> byGrader() {
    Map<String, List<Outcome>> by = new TreeMap<>();
    outcomes.values().forEach(o -> by.computeIfAbsent(o.item().grader().name(), k -> new ArrayList<>()).add(o));
    Map<String, Accuracy> out = new TreeMap<>();
    by.forEach((g, os) -> {
      Map<Integer, Outcome> sub = new TreeMap<>();
      for (int i = 0; i < os.size(); i++) sub.put(i, os.get(i));
      out.put(g, new LevelGrading(set, sub).accuracy());
    });
    return out;
  }
}
