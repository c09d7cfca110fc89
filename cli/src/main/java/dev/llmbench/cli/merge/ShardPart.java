package dev.llmbench.cli.merge;

import dev.llmbench.internal.report.FileReporter;
import dev.llmbench.internal.shard.Manifest;
import java.nio.file.Path;

/** One shard's entry for a level, with its folder. */
record ShardPart(ShardFolder shard, Manifest.LevelEntry level) {

  /** The level file the shard wrote for it. */
  Path file() {
    return shard.reports().resolve(level.sweepId()).resolve(FileReporter.fileName(level.label()) + ".json");
  }
}
