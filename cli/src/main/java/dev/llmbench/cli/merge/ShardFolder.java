package dev.llmbench.cli.merge;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.shard.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What one shard left: its report folder (with {@code shard.json}) and, when Allure was in use, its Allure
 * results. Given either the report folder itself, or a folder holding {@code llmbench/} and
 * {@code allure-results/} as a Maven module's {@code target/} does.
 */
@API(status = INTERNAL)
public record ShardFolder(Path given, Path reports, Optional<Path> allure, Manifest manifest) {

  public static ShardFolder at(Path given) {
    if (Files.isRegularFile(given.resolve(Manifest.FILE))) {
      return new ShardFolder(given, given, Optional.empty(), Manifest.read(given));
    }
    Path reports = given.resolve("llmbench");
    if (Files.isRegularFile(reports.resolve(Manifest.FILE))) {
      Path allure = given.resolve("allure-results");
      return new ShardFolder(given, reports, Files.isDirectory(allure) ? Optional.of(allure) : Optional.empty(),
          Manifest.read(reports));
    }
    throw new IllegalArgumentException("no " + Manifest.FILE + " in " + given + " or " + reports + ": give a shard's report "
        + "folder (llmbench.report.dir, where " + Manifest.FILE + " is), or the folder holding its llmbench/ and "
        + "allure-results/ (a module's target/); a run writes " + Manifest.FILE + " when llmbench.shard.count or "
        + "llmbench.shard.start is set");
  }

  public int index() {
    return manifest.shard().index();
  }

  @Override
  public String toString() {
    return "shard " + index() + " (" + given + ")";
  }
}
