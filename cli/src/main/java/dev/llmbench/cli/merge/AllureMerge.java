package dev.llmbench.cli.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.report.AllureReporter;
import dev.llmbench.internal.report.FileReporter;
import dev.llmbench.internal.report.HtmlSummary;
import dev.llmbench.internal.report.ResultCsv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Merges the shards' Allure results into one run's. Each sweep level, which every shard ran under the same
 * history id, becomes one result: the first measuring shard's, carrying the merged level's documents and
 * parameters, the worst status of any shard (with each failing shard's message) and the shards' time span.
 * Each sweep keeps one summary, with the merged table and charts. Every other result is kept from every
 * shard; tests that ran on each shard share a history id, so Allure shows one of them with the others as
 * retries. Attachments are copied when a kept result refers to them.
 */
final class AllureMerge {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> STATUS_ORDER = List.of("failed", "broken", "unknown", "passed", "skipped");

  private final Path out;
  private final Set<String> kept = new HashSet<>(); // uuids of results written to out
  private final Map<String, List<Result>> summaries = new LinkedHashMap<>(); // by sweep: every shard's summary, the first first
  private final Map<String, Long> levelStarts = new HashMap<>(); // by sweep: its merged levels' earliest start

  private AllureMerge(Path out) {
    this.out = out;
  }

  /** One shard's result file, read. */
  private record Result(ShardFolder shard, Path dir, ObjectNode json) {

    String historyId() {
      return json.path("historyId").asText(json.path("uuid").asText());
    }

    String label(String name) {
      for (JsonNode l : json.path("labels")) if (l.path("name").asText().equals(name)) return l.path("value").asText();
      return "";
    }

    String status() {
      return json.path("status").asText("unknown");
    }
  }

  static void merge(List<ShardFolder> shards, List<ShardMerge.MergedSweep> sweeps, Path mergedReports, Path out) {
    try {
      Files.createDirectories(out);
      new AllureMerge(out).run(shards, sweeps, mergedReports);
    } catch (IOException e) {
      throw new UncheckedIOException("could not merge the Allure results into " + out + ": " + e.getMessage(), e);
    }
  }

  private void run(List<ShardFolder> shards, List<ShardMerge.MergedSweep> sweeps, Path mergedReports) throws IOException {
    List<ShardFolder> ordered = shards.stream().filter(s -> s.allure().isPresent())
        .sorted(Comparator.comparingInt(ShardFolder::index)).toList();
    Map<String, List<Result>> byHistory = new LinkedHashMap<>();
    List<Path> containers = new ArrayList<>();
    for (ShardFolder s : ordered) {
      Path dir = s.allure().orElseThrow();
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.sorted().toList()) {
          String name = f.getFileName().toString();
          if (name.endsWith("-result.json")) {
            Result r = new Result(s, dir, (ObjectNode) JSON.readTree(f.toFile()));
            byHistory.computeIfAbsent(r.historyId(), k -> new ArrayList<>()).add(r);
          } else if (name.endsWith("-container.json")) {
            containers.add(f);
          }
        }
      }
    }
    for (List<Result> same : byHistory.values()) {
      Result first = same.get(0);
      Optional<ShardMerge.MergedSweep> sweep = sweeps.stream().filter(sw -> sw.className().equals(first.label("testClass"))
          && sw.method().equals(first.label("testMethod"))).findFirst();
      Optional<MeasuredLevel> level = sweep.flatMap(sw -> sw.levels().stream()
          .filter(l -> first.json.path("name").asText().endsWith(" " + l.label())).findFirst());
      if (sweep.isPresent() && "llmbench".equals(first.label("framework"))) {
        summaries.putIfAbsent(sweep.get().id(), same); // written last, placed before the merged levels
      } else if (level.isPresent()) {
        level(same, sweep.get(), level.get(), mergedReports);
      } else {
        for (Result r : same) copy(r, r.json);
      }
    }
    for (List<Result> same : summaries.values()) {
      Result first = same.get(0);
      String testClass = first.label("testClass");
      String method = first.label("testMethod");
      ShardMerge.MergedSweep sweep = sweeps.stream().filter(sw -> sw.className().equals(testClass)
          && sw.method().equals(method)).findFirst().orElseThrow();
      summary(first, sweep, mergedReports, shards.get(0).manifest().shard().count(), same);
    }
    for (Path c : containers) container(c);
    runFiles(ordered, shards.get(0).manifest().shard().count());
  }

  /** One result for a level that every shard ran. */
  private void level(List<Result> shards, ShardMerge.MergedSweep sweep, MeasuredLevel merged, Path mergedReports)
      throws IOException {
    List<Result> ran = shards.stream().filter(r -> !r.status().equals("skipped")).toList();
    Result base = ran.isEmpty() ? shards.get(0) : ran.get(0);
    ObjectNode json = base.json.deepCopy();
    Path sweepDir = mergedReports.resolve(sweep.id());
    String file = FileReporter.fileName(merged.label());
    ArrayNode attachments = JSON.createArrayNode();
    for (JsonNode a : base.json.path("attachments")) {
      String name = a.path("name").asText();
      if (name.equals(merged.label() + " summary")) {
        attachments.add(write(name, "text/html", "html", HtmlSummary.level(merged)));
      } else if (name.equals(merged.label() + " requests")) {
        attachments.add(write(name, "text/csv", "csv", Files.exists(sweepDir.resolve(file + ".csv"))
            ? Files.readString(sweepDir.resolve(file + ".csv")) : ResultCsv.write(merged)));
      } else if (name.equals(merged.label() + " result") && Files.exists(sweepDir.resolve(file + ".json"))) {
        attachments.add(write(name, "application/json", "json", Files.readString(sweepDir.resolve(file + ".json"))));
      } else if (name.equals("sweep table") && Files.exists(sweepDir.resolve("table.txt"))) {
        attachments.add(write(name, "text/plain", "txt", Files.readString(sweepDir.resolve("table.txt"))));
      } else if (name.startsWith("chart: ") && Files.exists(sweepDir.resolve(name.substring(7) + ".svg"))) {
        attachments.add(write(name, "image/svg+xml", "svg", Files.readString(sweepDir.resolve(name.substring(7) + ".svg"))));
      } else {
        attachments.add(a);
      }
    }
    json.set("attachments", attachments);
    parameters(json, merged, shards.get(0).shard().manifest().shard().count());
    if (!ran.isEmpty()) {
      String worst = ran.stream().map(Result::status).min(Comparator.comparingInt(AllureMerge::rank)).orElseThrow();
      json.put("status", worst);
      List<String> messages = new ArrayList<>();
      for (Result r : ran) {
        String message = r.json.path("statusDetails").path("message").asText("");
        if (!r.status().equals("passed") && !message.isEmpty()) messages.add("shard " + r.shard.index() + ": " + message);
      }
      if (!messages.isEmpty()) json.withObjectProperty("statusDetails").put("message", String.join("\n", messages));
      long start = ran.stream().mapToLong(r -> r.json.path("start").asLong()).min().orElseThrow();
      json.put("start", start);
      levelStarts.merge(sweep.id(), start, Math::min);
      json.put("stop", ran.stream().mapToLong(r -> r.json.path("stop").asLong()).max().orElseThrow());
    }
    merged.warnings().stream().filter(w -> w.startsWith("merged from")).findFirst()
        .ifPresent(w -> json.put("descriptionHtml", "<p>" + esc(w) + "</p>"));
    copy(base, json);
  }

  /** The level's whole load in the parameters a shard gave its share, as AllureReporter writes them. */
  private static void parameters(ObjectNode json, MeasuredLevel merged, int count) {
    Map<String, String> whole = new LinkedHashMap<>();
    merged.plan().load().match(c -> whole.put("concurrency", Integer.toString(c.concurrency())), o -> {
      whole.put("rate", Formats.number(o.rate().perSecond()) + " req/s");
      o.maxConcurrency().ifPresent(k -> whole.put("max concurrency", Integer.toString(k)));
      return null;
    });
    whole.put("requests", merged.plan().stop().match(c -> Integer.toString(c.requests()),
        t -> "for " + Formats.duration(t.duration()), a -> "adaptive"));
    ArrayNode params = JSON.createArrayNode();
    for (JsonNode p : json.path("parameters")) {
      String name = p.path("name").asText();
      params.add(whole.containsKey(name) ? ((ObjectNode) p.deepCopy()).put("value", whole.get(name)) : p);
    }
    params.addObject().put("name", "shards").put("value", Integer.toString(count)).put("excluded", true);
    json.set("parameters", params);
  }

  /** One sweep summary, the first shard's, with the merged table and charts. */
  private void summary(Result base, ShardMerge.MergedSweep sweep, Path mergedReports, int count, List<Result> shardsSummaries)
      throws IOException {
    Path dir = mergedReports.resolve(sweep.id());
    ObjectNode json = base.json.deepCopy();
    ArrayNode attachments = JSON.createArrayNode();
    attachments.add(write("sweep table", "text/plain", "txt", Files.readString(dir.resolve("table.txt"))));
    Set<String> charts = new LinkedHashSet<>();
    for (JsonNode a : base.json.path("attachments")) {
      if (a.path("name").asText().startsWith("chart: ")) charts.add(a.path("name").asText().substring(7));
    }
    try (Stream<Path> svgs = Files.list(dir)) {
      svgs.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".svg")).sorted()
          .forEach(n -> charts.add(n.substring(0, n.length() - 4)));
    }
    for (String chart : charts) {
      Path svg = dir.resolve(chart + ".svg");
      if (Files.exists(svg)) attachments.add(write("chart: " + chart, "image/svg+xml", "svg", Files.readString(svg)));
    }
    json.set("attachments", attachments);
    SweepRun run = new SweepRun(sweep.className(), sweep.method(), Listeners.none());
    Features.rebuild(run, sweep.levels());
    json.put("descriptionHtml", "<p>Each level merged from " + count + " shards' requests.</p>"
        + AllureReporter.summaryDescription(run, sweep.levels()));
    // One verdict: the merged levels' (SLOs, failed requests), or worse where a shard's tests failed or broke.
    String status = AllureReporter.summaryStatus(run, sweep.levels());
    for (Result r : shardsSummaries) status = worse(status, r.json.path("status").asText("passed"));
    json.put("status", status);
    Long first = levelStarts.get(sweep.id());
    if (first != null) json.put("start", first - 1); // Allure sorts by start: the summary first, as a run places it
    copy(base, json);
  }

  private static String worse(String a, String b) {
    List<String> order = List.of("passed", "skipped", "unknown", "failed", "broken");
    return order.indexOf(b) > order.indexOf(a) ? b : a;
  }

  /** Writes a result into the merged folder, with the attachments it refers to that came from its shard. */
  private void copy(Result from, ObjectNode json) throws IOException {
    String uuid = json.path("uuid").asText();
    if (!kept.add(uuid)) {
      uuid = UUID.randomUUID().toString(); // two shards' results with one uuid: keep both
      json.put("uuid", uuid);
      kept.add(uuid);
    }
    copyAttachments(from.dir, json);
    Files.writeString(out.resolve(uuid + "-result.json"), JSON.writeValueAsString(json));
  }

  private void copyAttachments(Path dir, JsonNode node) throws IOException {
    for (JsonNode a : node.path("attachments")) {
      Path source = dir.resolve(a.path("source").asText());
      Path target = out.resolve(a.path("source").asText());
      if (Files.isRegularFile(source) && !Files.exists(target)) Files.copy(source, target);
    }
    for (JsonNode step : node.path("steps")) copyAttachments(dir, step);
    for (JsonNode fixture : node.path("befores")) copyAttachments(dir, fixture);
    for (JsonNode fixture : node.path("afters")) copyAttachments(dir, fixture);
  }

  private ObjectNode write(String name, String type, String extension, String content) throws IOException {
    String source = UUID.randomUUID() + "-attachment." + extension;
    Files.writeString(out.resolve(source), content, StandardCharsets.UTF_8);
    return JSON.createObjectNode().put("name", name).put("source", source).put("type", type);
  }

  /** A container keeps its fixtures and the children that were kept; one left with neither is dropped. */
  private void container(Path file) throws IOException {
    ObjectNode json = (ObjectNode) JSON.readTree(file.toFile());
    ArrayNode children = JSON.createArrayNode();
    json.path("children").forEach(c -> {
      if (kept.contains(c.asText())) children.add(c);
    });
    if (children.isEmpty() && json.path("befores").isEmpty() && json.path("afters").isEmpty()) return;
    json.set("children", children);
    copyAttachments(file.getParent(), json);
    Path target = out.resolve(file.getFileName());
    if (!Files.exists(target)) Files.writeString(target, JSON.writeValueAsString(json));
  }

  /** The first shard's environment, executor and categories, the environment saying how many shards there were. */
  private void runFiles(List<ShardFolder> shards, int count) throws IOException {
    for (String name : List.of("environment.properties", "executor.json", "categories.json")) {
      for (ShardFolder s : shards) {
        Path source = s.allure().orElseThrow().resolve(name);
        if (Files.isRegularFile(source)) {
          Files.copy(source, out.resolve(name), StandardCopyOption.REPLACE_EXISTING);
          break;
        }
      }
    }
    Path env = out.resolve("environment.properties");
    String before = Files.exists(env) ? Files.readString(env) : "";
    Files.writeString(env, before + (before.isEmpty() || before.endsWith("\n") ? "" : "\n") + "shards=" + count + "\n");
  }

  private static int rank(String status) {
    int i = STATUS_ORDER.indexOf(status);
    return i < 0 ? STATUS_ORDER.indexOf("unknown") : i;
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
