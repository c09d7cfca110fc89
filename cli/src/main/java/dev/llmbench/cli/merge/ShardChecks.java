package dev.llmbench.cli.merge;

import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.shard.Manifest;
import dev.llmbench.internal.shard.Shard;
import dev.llmbench.internal.shard.Share;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** Whether shards add up to one run: each check says every problem it finds, one a line, for the merge to list. */
final class ShardChecks {

  private ShardChecks() {}

  /** The shards are one run's: one count, each index once, one schedule. */
  static List<String> shards(List<ShardFolder> shards) {
    List<String> problems = new ArrayList<>();
    Shard first = shards.get(0).manifest().shard();
    Map<Integer, List<ShardFolder>> byIndex = new TreeMap<>();
    for (ShardFolder s : shards) {
      Shard shard = s.manifest().shard();
      if (shard.count() != first.count()) {
        problems.add(s + " is one of " + shard.count() + " shards, " + shards.get(0) + " one of " + first.count());
      }
      if (!shard.start().equals(first.start()) || !shard.slot().equals(first.slot())) {
        problems.add(s + " kept another schedule (start " + shard.start().map(Object::toString).orElse("none") + ", slot "
            + shard.slot().map(Formats::duration).orElse("none") + ") than " + shards.get(0) + " (start "
            + first.start().map(Object::toString).orElse("none") + ", slot " + first.slot().map(Formats::duration).orElse("none")
            + "): their levels did not run together");
      }
      byIndex.computeIfAbsent(s.index(), k -> new ArrayList<>()).add(s);
    }
    byIndex.forEach((i, same) -> {
      if (same.size() > 1) problems.add("shard " + i + " is given " + same.size() + " times: " + same);
    });
    for (int i = 0; i < first.count(); i++) {
      if (!byIndex.containsKey(i)) problems.add("shard " + i + " of " + first.count() + " is not among the folders given");
    }
    return problems;
  }

  /** Problems of one level across shards; returns the shards whose part is missing. */
  static List<String> level(List<ShardPart> parts, int count, List<String> problems) {
    Manifest.LevelEntry first = parts.get(0).level();
    String level = first.label() + " of " + first.sweepId();
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      Optional<ShardPart> part = parts.stream().filter(p -> p.shard().index() == index).findFirst();
      if (part.isEmpty()) {
        missing.add("shard " + i + " never reached it");
        continue;
      }
      Manifest.LevelEntry l = part.get().level();
      if (l.skipped().isEmpty() && l.result().isEmpty()) {
        missing.add("shard " + i + " began it but wrote no result (the level failed there: see that shard's log)");
      } else if (l.result().isPresent() && !Files.isRegularFile(part.get().file())) {
        missing.add("shard " + i + "'s " + part.get().file() + " is missing");
      }
      if (l.slot() != first.slot()) {
        problems.add(level + " was level " + (l.slot() + 1) + " of the run on shard " + i + " but level " + (first.slot() + 1)
            + " on shard " + parts.get(0).shard().index() + ": the shards ran different tests or levels");
      }
      if (!Objects.equals(plan(l), plan(first))) {
        problems.add(level + " was planned differently on shard " + i + " (" + plan(l) + ") than on shard "
            + parts.get(0).shard().index() + " (" + plan(first) + "): give every shard the same settings");
      }
    }
    missing.forEach(m -> problems.add(level + ": " + m));
    return missing;
  }

  /** What must match across shards: the whole level's plan, as the manifest writes it. */
  private static String plan(Manifest.LevelEntry l) {
    return Share.describe(l.whole()) + ", max_tokens " + l.whole().maxTokens() + ", input " + l.whole().inputTokens()
        + ", prompts " + l.whole().workload().prompts().name() + ", warm-up " + l.whole().warmupRequests() + ", seed "
        + l.whole().seed();
  }
}
