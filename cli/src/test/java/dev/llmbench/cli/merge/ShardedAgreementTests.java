package dev.llmbench.cli.merge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.shard.Manifest;
import dev.llmbench.testkit.FixtureMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import dev.llmbench.assertions.LlmBenchAssertions;

/**
 * The end-to-end check of scale-out: one sweep against one engine, run once in one JVM and once as two shards in
 * two JVMs on a shared schedule; the merge of the shards agrees with the single run within noise.
 */
class ShardedAgreementTests {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String SWEEP = AgreementTestCases.class.getName().replace('$', '.') + ".sweep";

  /** C=3 splits unevenly (2 + 1 workers, 16 + 8 requests); C=8 evenly. */
  @LlmEndpoint
  static class AgreementTestCases {
    @ConcurrencySweep({3, 8})
    @Workload(maxTokens = 16)
    @Measurement(requests = 24)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  @Test
  void twoShardsInTwoJvmsMergeToWhatOneJvmMeasures() throws Exception {
    Path root = Files.createTempDirectory(Files.createDirectories(Path.of("target", "testkit-reports")), "shards-");
    List<ShardFolder> folders;
    List<String> attempts = new ArrayList<>();
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.GQA_DENSE, 0, Duration.ZERO)) {
      String url = "llmbench.base-url=" + server.baseUrl();
      Instant launched = Instant.now();
      Path single = root.resolve("single");
      await(fixture(single, url), single);
      // The schedule is sized by what the single run took just now, as loaded as this runner is now: from launch to
      // its first measured send (JVM start, readiness, warm-up), and from one level's first send to the next's (a
      // level, its report, the next warm-up). Two JVMs sharing two cores take up to twice as long as one.
      Instant firstSend = firstSend(single, "C=3");
      Duration lead = Duration.between(launched, firstSend);
      Duration period = Duration.between(firstSend, firstSend(single, "C=8"));
      // What is checked below assumes the shards kept the schedule. When the runner got busier and a shard could not
      // (the manifests say), the shards run again with margins twice as wide, three times at most.
      for (int factor = 2; ; factor *= 2) {
        Path dir = Files.createDirectories(root.resolve("x" + factor));
        Instant start = Instant.now().plus(lead.multipliedBy(factor).plusSeconds(1)).truncatedTo(ChronoUnit.MILLIS);
        Duration slot = period.multipliedBy(factor).plusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
        List<Process> shards = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
          shards.add(fixture(dir.resolve("shard-" + i), url, "llmbench.shard.count=2", "llmbench.shard.index=" + i,
              "llmbench.shard.start=" + start, "llmbench.shard.slot=" + slot.toMillis() + "ms"));
        }
        for (int i = 0; i < 2; i++) await(shards.get(i), dir.resolve("shard-" + i));
        folders = List.of(ShardFolder.at(dir.resolve("shard-0")), ShardFolder.at(dir.resolve("shard-1")));
        List<String> late = new ArrayList<>();
        for (ShardFolder f : folders) {
          for (Manifest.LevelEntry l : f.manifest().levels()) {
            l.late().filter(d -> !d.isZero()).ifPresent(d -> late.add("shard " + f.index() + " " + l.label() + " late by "
                + Formats.duration(d)));
          }
        }
        attempts.add("start in " + Formats.duration(lead.multipliedBy(factor).plusSeconds(1)) + ", slot "
            + Formats.duration(slot) + (late.isEmpty() ? ": kept" : ": " + late));
        if (late.isEmpty()) break;
        assertThat(factor).as("the shards kept no schedule; attempts: %s; last logs:%n%s%n%s", attempts,
            log(dir.resolve("shard-0")), log(dir.resolve("shard-1"))).isLessThan(8);
      }
    }
    // Merged as a user merges: the command line, given each shard's folder (llmbench/ and allure-results/).
    Path mergedRun = root.resolve("merged");
    List<String> args = new ArrayList<>(List.of("--out", mergedRun.toString()));
    folders.forEach(f -> args.add(f.given().toString()));
    assertThat(new CommandLine(new MergeMain()).execute(args.toArray(String[]::new))).as("merge exit status").isZero();
    Path single = root.resolve("single");

    List<String> lines = new ArrayList<>();
    for (String label : List.of("C=3", "C=8")) {
      JsonNode one = level(single, label);
      JsonNode merged = level(mergedRun, label);
      assertThat(merged.get("completed").asInt()).as(label + " completed").isEqualTo(one.get("completed").asInt()).isEqualTo(24);
      assertThat(merged.get("failed").asInt()).as(label + " failed").isZero();
      assertThat(merged.get("total_output_tokens").asInt()).as(label + " output tokens")
          .isEqualTo(one.get("total_output_tokens").asInt()).isEqualTo(24 * 16);
      assertThat(merged.get("total_input_tokens").asInt()).as(label + " prompt tokens: the shards sent the single run's prompts")
          .isEqualTo(one.get("total_input_tokens").asInt());
      assertThat(merged.get("max_concurrent_requests").asInt()).as(label + " peak in flight, across both shards")
          .isEqualTo(one.get("max_concurrent_requests").asInt());
      // Within noise. Output throughput is each request's own decode speed (output tokens over E2E time, summed)
      // times the mean number of requests in flight; the merge sets the second (its window and timeline), the
      // server's speed at the time sets the first. So the merged throughput must lie in the single run's 95%
      // interval, widened by the merged level's own, by how much faster or slower the server served each request
      // in the one run than in the other, and by the share of the window in which not every shard was sending
      // (they neither start nor end at the same instant): that share comes from each shard's own first send and
      // duration, not from the merge. A server busier in one run is noise; a misplaced shard is not.
      double value = merged.get("output_throughput").asDouble();
      double base = one.get("output_throughput").asDouble();
      JsonNode ci = one.get("llmbench").get("output_throughput_ci95");
      JsonNode mergedCi = merged.get("llmbench").get("output_throughput_ci95");
      double widen = (mergedCi.get("upper").asDouble() - mergedCi.get("lower").asDouble()) / 2;
      double speed = perRequestSpeed(merged) / perRequestSpeed(one);
      double drift = Math.abs(speed - 1) * base;
      double edges = edges(folders, label);
      String line = String.format(Locale.ROOT, "%s: single %.1f tok/s (95%% CI %.1f-%.1f, window %.3f s, %.2f in flight), "
              + "merged %.1f tok/s (95%% CI ±%.1f, window %.3f s, %.2f in flight, first sends %s apart, not all shards "
              + "sending for %s of it); per-request speed merged/single %.3f", label, base, ci.get("lower").asDouble(),
          ci.get("upper").asDouble(), one.get("duration").asDouble(), inFlight(one), value, widen,
          merged.get("duration").asDouble(), inFlight(merged), Formats.duration(spread(folders, label)),
          Formats.percent(edges), speed);
      lines.add(line);
      double slack = widen + drift + edges * base;
      assertThat(value).as(line).isBetween(ci.get("lower").asDouble() - slack, ci.get("upper").asDouble() + slack);
    }
    assertMergedAllure(mergedRun);
    System.out.println("[sharded agreement] schedules: " + attempts + "\n[sharded agreement] "
        + String.join("\n[sharded agreement] ", lines));
  }

  /** Runs the fixture in a JVM of its own, its reports under {@code run}/llmbench and allure-results, its output in run.log. */
  private static Process fixture(Path run, String... configuration) throws IOException {
    // C1 only, as Maven's own .mvn/jvm.config: a cold JVM is ready sooner, and every run here gets the same.
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-Dallure.results.directory=" + run.resolve("allure-results"), "-cp",
        System.getProperty("java.class.path"), FixtureMain.class.getName(), AgreementTestCases.class.getName(),
        "llmbench.report.dir=" + run.resolve("llmbench")));
    command.addAll(List.of(configuration));
    Files.createDirectories(run);
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(run.resolve("run.log").toFile()).start();
  }

  private static void await(Process p, Path run) throws Exception {
    try {
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the fixture JVM ends; it printed:%n%s", log(run)).isTrue();
    } finally {
      p.destroyForcibly();
    }
  }

  private static String log(Path run) throws IOException {
    return Files.readString(run.resolve("run.log"));
  }

  /** One Allure result per level, with the whole level's load and the merged documents, and one sweep summary. */
  private static void assertMergedAllure(Path run) throws IOException {
    Path results = run.resolve("allure-results");
    List<JsonNode> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(results)) {
      for (Path f : files.filter(f -> f.toString().endsWith("-result.json")).toList()) all.add(JSON.readTree(f.toFile()));
    }
    for (String c : List.of("3", "8")) {
      List<JsonNode> level = all.stream().filter(r -> r.path("name").asText().endsWith(" C=" + c)).toList();
      assertThat(level).as("Allure results of C=" + c).hasSize(1);
      JsonNode r = level.get(0);
      assertThat(r.path("status").asText()).isEqualTo("passed");
      assertThat(parameter(r, "concurrency")).isEqualTo(c);
      assertThat(parameter(r, "requests")).isEqualTo("24");
      assertThat(parameter(r, "shards")).isEqualTo("2");
      JsonNode json = StreamSupport.stream(r.path("attachments").spliterator(), false)
          .filter(a -> a.path("name").asText().equals("C=" + c + " result")).findFirst().orElseThrow();
      assertThat(results.resolve(json.path("source").asText())).hasSameTextualContentAs(
          run.resolve("llmbench").resolve(SWEEP).resolve("C=" + c + ".json"));
    }
    assertThat(all.stream().filter(r -> r.path("name").asText().equals("sweep · sweep summary"))).hasSize(1);
    assertThat(results.resolve("environment.properties")).content().contains("shards=2");
  }

  private static String parameter(JsonNode result, String name) {
    for (JsonNode p : result.path("parameters")) if (p.path("name").asText().equals(name)) return p.path("value").asText();
    return null;
  }

  /** How far apart the shards' first measured sends of a level were. */
  private static Duration spread(List<ShardFolder> folders, String label) {
    List<Instant> sends = folders.stream().flatMap(f -> f.manifest().levels().stream())
        .filter(l -> l.label().equals(label)).map(l -> l.result().orElseThrow().firstSend()).sorted().toList();
    return Duration.between(sends.get(0), sends.get(sends.size() - 1));
  }

  /**
   * The share of a level's span (first send of any shard to last end of any) in which not every shard was sending,
   * from each shard's own manifest (first send) and level file (duration): what starting and ending apart costs.
   */
  private static double edges(List<ShardFolder> folders, String label) throws IOException {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    long lastStart = Long.MIN_VALUE;
    long firstEnd = Long.MAX_VALUE;
    for (ShardFolder f : folders) {
      for (Manifest.LevelEntry l : f.manifest().levels()) {
        if (!l.label().equals(label)) continue;
        long from = ChronoUnit.MICROS.between(Instant.EPOCH, l.result().orElseThrow().firstSend());
        long to = from + Math.round(level(f.given(), label).get("duration").asDouble() * 1e6);
        start = Math.min(start, from);
        end = Math.max(end, to);
        lastStart = Math.max(lastStart, from);
        firstEnd = Math.min(firstEnd, to);
      }
    }
    return (double) (end - start - Math.max(0, firstEnd - lastStart)) / (end - start);
  }

  /** Output tokens per second of E2E time, over the level's successful requests. */
  private static double perRequestSpeed(JsonNode level) {
    return level.get("total_output_tokens").asDouble() / e2eSeconds(level);
  }

  /** E2E time over the window: the mean number of requests in flight. */
  private static double inFlight(JsonNode level) {
    return e2eSeconds(level) / level.get("duration").asDouble();
  }

  private static double e2eSeconds(JsonNode level) {
    double ms = 0;
    for (JsonNode r : level.get("requests")) if (r.get("error").isNull()) ms += r.get("e2e_ms").asDouble();
    return ms / 1e3;
  }

  /** The wall-clock time of a level's first send, from its file. */
  private static Instant firstSend(Path run, String label) throws IOException {
    long ms = Long.MAX_VALUE;
    for (JsonNode r : level(run, label).get("requests")) ms = Math.min(ms, r.get("start_epoch_ms").asLong());
    return Instant.ofEpochMilli(ms);
  }

  private static JsonNode level(Path run, String label) throws IOException {
    return ResultJson.read(Files.readString(run.resolve("llmbench").resolve(SWEEP).resolve(label + ".json")));
  }
}
