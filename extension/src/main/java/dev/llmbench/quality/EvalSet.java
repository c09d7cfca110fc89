package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * The items an eval sends, checked whole before any load.
 *
 * @param name  {@code generated:arithmetic} or {@code gsm8k:file.jsonl}
 * @param items in the order they are sent: request {@code i} sends item {@code i}
 */
record EvalSet(String name, List<EvalItem> items) {

  public EvalSet {
    items = List.copyOf(items);
    if (items.isEmpty()) throw new IllegalArgumentException(name + " holds no eval items");
  }

  public int size() {
    return items.size();
  }

  /** How many items each grader has, by grader name: {@code number 84, choice 83}. */
  public Map<String, Long> graders() {
    return items.stream().collect(Collectors.groupingBy(i -> i.grader().name(), TreeMap::new, Collectors.counting()));
  }
}
