package dev.llmbench.cli.merge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Allure side of a merge, on hand-written shard results beside ShardMergeTests' shard folders. */
class AllureMergeTests {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  /** A result as allure-jupiter writes one, with one attachment file beside it. */
  static void result(Path results, String uuid, String historyId, String name, String status, String message,
      String concurrency) throws IOException {
    ObjectNode r = JSON.createObjectNode().put("uuid", uuid).put("historyId", historyId).put("name", name)
        .put("status", status).put("start", 1000 + uuid.hashCode() % 100).put("stop", 5000);
    if (message != null) r.putObject("statusDetails").put("message", message);
    r.putArray("labels").addObject().put("name", "testClass").put("value", ShardMergeTests.CLASS);
    ((ArrayNode) r.get("labels")).addObject().put("name", "testMethod").put("value", "sweep");
    if (concurrency != null) {
      ArrayNode parameters = r.putArray("parameters");
      parameters.addObject().put("name", "concurrency").put("value", concurrency); // the shard's share, as it ran
      parameters.addObject().put("name", "requests").put("value", "1");
    }
    r.putArray("attachments").addObject().put("name", "readiness").put("source", uuid + "-attachment.txt")
        .put("type", "text/plain");
    Files.createDirectories(results);
    Files.writeString(results.resolve(uuid + "-attachment.txt"), "ready");
    Files.writeString(results.resolve(uuid + "-result.json"), JSON.writeValueAsString(r));
  }

  static void summary(Path results, String uuid) throws IOException {
    ObjectNode r = JSON.createObjectNode().put("uuid", uuid).put("historyId", "summary").put("name", "sweep · sweep summary")
        .put("status", "passed");
    r.putArray("labels").addObject().put("name", "framework").put("value", "llmbench");
    ((ArrayNode) r.get("labels")).addObject().put("name", "testClass")
        .put("value", ShardMergeTests.CLASS);
    ((ArrayNode) r.get("labels")).addObject().put("name", "testMethod").put("value", "sweep");
    r.putArray("attachments");
    Files.writeString(results.resolve(uuid + "-result.json"), JSON.writeValueAsString(r));
  }

  @Test
  void eachLevelBecomesOneResultWithTheWorstStatusAndTheWholeLoad() throws IOException {
    ShardMergeTests shards = new ShardMergeTests();
    shards.dir = dir;
    List<Path> folders = shards.twoShards();
    Path a0 = folders.get(0).resolve("allure-results");
    Path a1 = folders.get(1).resolve("allure-results");
    result(a0, "s0-c4", "h-c4", "sweep(SweepLevelResult) C=4", "passed", null, "2");
    result(a1, "s1-c4", "h-c4", "sweep(SweepLevelResult) C=4", "failed", "[C=4: TTFT p90] too slow", "2");
    result(a0, "s0-c1", "h-c1", "sweep(SweepLevelResult) C=1", "passed", null, "1");
    result(a1, "s1-c1", "h-c1", "sweep(SweepLevelResult) C=1", "skipped", "C=1: no share", "1");
    result(a0, "s0-smoke", "h-smoke", "knowsParis()", "passed", null, null);
    result(a1, "s1-smoke", "h-smoke", "knowsParis()", "passed", null, null);
    summary(a0, "s0-summary");
    summary(a1, "s1-summary");
    Files.writeString(a1.resolve("c1-container.json"), "{\"uuid\":\"c1\",\"name\":\"C=4\",\"children\":[\"s1-c4\",\"s1-smoke\"],"
        + "\"befores\":[],\"afters\":[]}");
    Files.writeString(a0.resolve("environment.properties"), "model=m\n");

    Path out = dir.resolve("merged");
    List<ShardFolder> given = folders.stream().map(ShardFolder::at).toList();
    List<ShardMerge.MergedSweep> merged = ShardMerge.merge(given, false);
    MergedReports.write(merged, out.resolve("llmbench"));
    AllureMerge.merge(given, merged, out.resolve("llmbench"), out.resolve("allure-results"));

    List<JsonNode> results = read(out.resolve("allure-results"));
    JsonNode c4 = only(results, "sweep(SweepLevelResult) C=4");
    assertThat(c4.path("status").asText()).as("the worst shard's").isEqualTo("failed");
    assertThat(c4.path("statusDetails").path("message").asText()).isEqualTo("shard 1: [C=4: TTFT p90] too slow");
    assertThat(parameters(c4)).containsExactly("concurrency=4", "requests=5", "shards=2");
    assertThat(c4.path("start").asLong()).isEqualTo(Math.min(1000 + "s0-c4".hashCode() % 100, 1000 + "s1-c4".hashCode() % 100));
    assertThat(c4.path("descriptionHtml").asText()).contains("merged from 2 shards");
    assertThat(out.resolve("allure-results").resolve("s0-c4-attachment.txt")).as("the first shard's own attachment").exists();

    JsonNode c1 = only(results, "sweep(SweepLevelResult) C=1");
    assertThat(c1.path("status").asText()).as("a shard with no share does not count").isEqualTo("passed");
    assertThat(parameters(c1)).containsExactly("concurrency=1", "requests=2", "shards=2");

    assertThat(results.stream().filter(r -> r.path("name").asText().equals("knowsParis()"))).as("kept from every shard").hasSize(2);
    assertThat(results.stream().filter(r -> r.path("name").asText().equals("sweep · sweep summary"))).hasSize(1);
    JsonNode summary = only(results, "sweep · sweep summary");
    assertThat(summary.path("attachments").get(0).path("name").asText()).isEqualTo("sweep table");
    assertThat(out.resolve("allure-results").resolve(summary.path("attachments").get(0).path("source").asText()))
        .hasSameTextualContentAs(out.resolve("llmbench").resolve(ShardMergeTests.SWEEP).resolve("table.txt"));
    assertThat(summary.path("descriptionHtml").asText()).startsWith("<p>Each level merged from 2 shards' requests.</p>")
        .contains("C= 4 | 4/5 ok (1 err)");
    assertThat(summary.path("start").asLong()).as("just before the merged levels, so Allure lists it first")
        .isEqualTo(Math.min(c4.path("start").asLong(), c1.path("start").asLong()) - 1);

    JsonNode container = JSON.readTree(out.resolve("allure-results").resolve("c1-container.json").toFile());
    assertThat(container.path("children").toString()).as("children that were merged away are dropped")
        .isEqualTo("[\"s1-smoke\"]");
    assertThat(Files.readString(out.resolve("allure-results").resolve("environment.properties"))).isEqualTo("model=m\nshards=2\n");
  }

  static List<JsonNode> read(Path results) throws IOException {
    List<JsonNode> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(results)) {
      for (Path f : files.filter(f -> f.toString().endsWith("-result.json")).toList()) all.add(JSON.readTree(f.toFile()));
    }
    return all;
  }

  static JsonNode only(List<JsonNode> results, String name) {
    List<JsonNode> named = results.stream().filter(r -> r.path("name").asText().equals(name)).toList();
    assertThat(named).as(name).hasSize(1);
    return named.get(0);
  }

  static List<String> parameters(JsonNode result) {
    List<String> p = new ArrayList<>();
    result.path("parameters").forEach(n -> p.add(n.path("name").asText() + "=" + n.path("value").asText()));
    return p;
  }
}
