package dev.llmbench.cli.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.Metric;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.report.LatencyHistograms;
import dev.llmbench.internal.report.ReportOptions;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.shard.Manifest;
import dev.llmbench.internal.shard.Shard;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The merge on shard folders built by hand: two shards of a C=4 level, the second starting 50 ms after the
 * first, whose union has figures worked out below; and a C=1 level only shard 0 ran.
 */
class ShardMergeTests {

  static final String CLASS = "com.example.Bench$Nested";
  static final String SWEEP = "com.example.Bench.Nested.sweep";
  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  static LevelPlan whole(int c, int requests) {
    return new LevelPlan("C=" + c, new LoadShape.ClosedLoop(c), new StopRule.Count(requests),
        new WorkloadPlan(3, 0, true, null, PromptSource.builtIn(7)), c, 7);
  }

  /** Shard 0's part of C=4: two requests at once, TTFT 20 ms, 3 tokens 40 ms apart, 100 ms each. */
  static List<RequestTrace> shard0() {
    return List.of(Traces.at(0).content(20, 60, 100).usage(10, 3).build(),
        Traces.at(0).content(20, 60, 100).usage(10, 3).build());
  }

  /** Shard 1's part: two requests of 200 ms (TTFT 50, tokens 75 ms apart) and one refused after 10 ms. */
  static List<RequestTrace> shard1() {
    return List.of(Traces.at(0).content(50, 125, 200).usage(10, 3).build(),
        Traces.at(0).content(50, 125, 200).usage(10, 3).build(),
        Traces.at(60).failed(ErrorKind.HTTP_STATUS, 503, "busy").end(10).build());
  }

  /** Writes a shard's level file and returns its manifest entry. */
  static Manifest.LevelEntry level(Path reports, int slot, LevelPlan whole, List<RequestTrace> traces, Instant firstSend) {
    // Every shard here has 2 of the whole level's workers, or all of them when it has fewer.
    Levels built = Levels.closed(Math.min(2, whole.concurrency())).label(whole.label()).maxTokens(3).percentiles(50.0, 99.0);
    traces.forEach(built::request);
    MeasuredLevel level = built.build();
    // As a shard run with llmbench.report.chunk-timings=true writes it: its records hold every chunk's arrival.
    write(reports.resolve(SWEEP).resolve(whole.label() + ".json"), ResultJson.write(level, new ReportOptions(true)));
    return new Manifest.LevelEntry(slot, CLASS, "sweep", whole.label(), Optional.of(T0.plusSeconds(60L * slot)),
        Optional.of(Duration.ZERO), whole, Optional.of(level.plan()), "", ServiceLevels.none(), List.of(50.0, 99.0),
        Optional.of(new Manifest.Result(firstSend, traces.size(), StopReason.REQUEST_COUNT, Levels.ENDPOINT)));
  }

  static Manifest.LevelEntry skipped(int slot, LevelPlan whole) {
    return new Manifest.LevelEntry(slot, CLASS, "sweep", whole.label(), Optional.of(T0.plusSeconds(60L * slot)), Optional.empty(),
        whole, Optional.empty(), whole.label() + ": no share", ServiceLevels.none(), List.of(50.0, 99.0), Optional.empty());
  }

  static Shard shard(int index) {
    return new Shard(index, 2, Optional.of(T0), Optional.of(Duration.ofMinutes(1)));
  }

  /** Two shard folders: shard-i/llmbench with shard.json and the sweep's level files. */
  List<Path> twoShards() {
    Path s0 = dir.resolve("shard-0");
    Path s1 = dir.resolve("shard-1");
    Path r0 = s0.resolve("llmbench");
    Path r1 = s1.resolve("llmbench");
    new Manifest(shard(0), "host-a", List.of(level(r0, 0, whole(4, 5), shard0(), T0),
        level(r0, 1, whole(1, 2), List.of(Traces.at(0).content(20, 60, 100).usage(10, 3).build(),
            Traces.at(100).content(20, 60, 100).usage(10, 3).build()), T0.plusSeconds(60)))).write(r0);
    new Manifest(shard(1), "host-b", List.of(level(r1, 0, whole(4, 5), shard1(), T0.plusMillis(50)),
        skipped(1, whole(1, 2)))).write(r1);
    return List.of(s0, s1);
  }

  static List<ShardFolder> folders(List<Path> paths) {
    return paths.stream().map(ShardFolder::at).toList();
  }

  @Test
  void theMergedLevelIsComputedFromTheUnionOfRequestsOnOneTimeline() throws IOException {
    List<ShardMerge.MergedSweep> merged = ShardMerge.merge(folders(twoShards()), false);
    assertThat(merged).hasSize(1);
    assertThat(merged.get(0).id()).isEqualTo(SWEEP);
    Path out = dir.resolve("merged");
    MergedReports.write(merged, out);

    JsonNode c4 = ResultJson.read(Files.readString(out.resolve(SWEEP).resolve("C=4.json")));
    assertThat(c4.get("completed").asInt()).isEqualTo(4);
    assertThat(c4.get("failed").asInt()).isEqualTo(1);
    assertThat(c4.get("total_output_tokens").asInt()).isEqualTo(12);
    assertThat(c4.get("total_input_tokens").asInt()).isEqualTo(40);
    // Window: shard 0's first send to shard 1's last end, 50 + 200 ms.
    assertThat(c4.get("duration").asDouble()).isCloseTo(0.250, within(1e-9));
    assertThat(c4.get("output_throughput").asDouble()).isCloseTo(12 / 0.250, within(1e-6));
    assertThat(c4.get("request_throughput").asDouble()).isCloseTo(4 / 0.250, within(1e-6));
    assertThat(c4.get("max_concurrent_requests").asInt()).as("2 + 2 in flight from 50 to 100 ms").isEqualTo(4);
    assertThat(c4.get("max_concurrency").asInt()).as("the whole level's C").isEqualTo(4);
    assertThat(c4.get("mean_ttft_ms").asDouble()).isCloseTo(35.0, within(1e-9));
    assertThat(c4.get("median_ttft_ms").asDouble()).isCloseTo(35.0, within(1e-9));
    assertThat(c4.get("p99_ttft_ms").asDouble()).isCloseTo(50.0, within(1e-9)); // numpy: 20, 20, 50, 50 at 0.99 x 3
    assertThat(c4.get("mean_tpot_ms").asDouble()).isCloseTo(57.5, within(1e-9)); // 40, 40, 75, 75
    assertThat(c4.get("mean_itl_ms").asDouble()).isCloseTo(57.5, within(1e-9));
    assertThat(c4.get("mean_e2el_ms").asDouble()).isCloseTo(150.0, within(1e-9));
    JsonNode own = c4.get("llmbench");
    assertThat(own.get("label").asText()).isEqualTo("C=4");
    assertThat(own.get("concurrency").asInt()).isEqualTo(4);
    assertThat(own.get("errors_by_type").get("HTTP 503").asInt()).isEqualTo(1);
    assertThat(own.get("warnings").get(0).asText()).isEqualTo("merged from 2 shards, their requests on one wall-clock "
        + "timeline: shard 0 C=2, 2 requests on host-a; shard 1 C=2, 3 requests on host-b");
    assertThat(c4.get("requests")).hasSize(5);
    assertThat(c4.get("requests").get(2).get("start_offset_ms").asDouble()).as("shard 1's first, 50 ms on").isEqualTo(50.0);

    // The merged histograms are the sum of the shards', to the count.
    Map<Metric, Histogram> mergedHistograms = LatencyHistograms.read(own.get("histograms"));
    for (Metric m : mergedHistograms.keySet()) {
      Histogram sum = histograms("shard-0", "C=4").get(m);
      sum.add(histograms("shard-1", "C=4").get(m));
      assertThat(mergedHistograms.get(m)).as(m.key()).isEqualTo(sum);
    }

    JsonNode c1 = ResultJson.read(Files.readString(out.resolve(SWEEP).resolve("C=1.json")));
    assertThat(c1.get("completed").asInt()).isEqualTo(2);
    assertThat(c1.get("llmbench").get("warnings").get(0).asText()).endsWith("shard 0 C=1, 2 requests on host-a; "
        + "shard 1 had no share");
    assertThat(Files.readString(out.resolve(SWEEP).resolve("C=4.csv")).lines()).hasSize(6);
    assertThat(Files.readString(out.resolve(SWEEP).resolve("table.txt"))).contains("C= 1 | 2/2 ok (0 err)")
        .contains("C= 4 | 4/5 ok (1 err) | wall=  0.3s |   48.0 tok/s");
    assertThat(Files.readString(out.resolve(SWEEP).resolve("index.html"))).contains("<h2>Nested.sweep</h2>");
    assertThat(out.resolve(SWEEP).resolve("throughput.svg")).exists();
  }

  Map<Metric, Histogram> histograms(String shard, String label) throws IOException {
    Path file = dir.resolve(shard).resolve("llmbench").resolve(SWEEP).resolve(label + ".json");
    return LatencyHistograms.read(ResultJson.read(Files.readString(file)).get("llmbench").get("histograms"));
  }

  @Test
  void aMissingShardOrLevelIsListedAndNothingIsMergedUnlessAskedTo() throws IOException {
    List<Path> shards = twoShards();
    Path r1 = shards.get(1).resolve("llmbench");
    Manifest m1 = Manifest.read(r1);
    // Shard 1 began C=4 but its JVM died before the level ended: an entry with no result.
    Manifest.LevelEntry began = m1.levels().get(0);
    new Manifest(m1.shard(), m1.host(), List.of(new Manifest.LevelEntry(began.slot(), began.className(), began.method(),
        began.label(), began.dueAt(), began.late(), began.whole(), began.share(), "", began.slo(), began.percentiles(),
        Optional.empty()))).write(r1);
    assertThatThrownBy(() -> ShardMerge.merge(folders(shards), false)).isInstanceOf(ShardMerge.IncompleteException.class)
        .hasMessageContaining("C=4 of " + SWEEP + ": shard 1 began it but wrote no result")
        .hasMessageContaining("C=1 of " + SWEEP + ": shard 1 never reached it");
    assertThatThrownBy(() -> ShardMerge.merge(folders(shards.subList(0, 1)), false))
        .hasMessageContaining("shard 1 of 2 is not among the folders given");

    List<ShardMerge.MergedSweep> partial = ShardMerge.merge(folders(shards), true);
    MeasuredLevel c4 = partial.get(0).levels().get(0);
    assertThat(c4.requestCount()).isEqualTo(2);
    assertThat(c4.warnings()).anyMatch(w -> w.startsWith("incomplete: shard 1 began it but wrote no result"));
  }

  @Test
  void shardsThatDidNotRunTogetherAreNotMerged() {
    List<Path> shards = twoShards();
    Path r1 = shards.get(1).resolve("llmbench");
    Manifest m1 = Manifest.read(r1);
    new Manifest(new Shard(1, 2, Optional.of(T0.plusSeconds(3600)), Optional.of(Duration.ofMinutes(1))), m1.host(),
        m1.levels()).write(r1);
    assertThatThrownBy(() -> ShardMerge.merge(folders(shards), false))
        .hasMessageContaining("kept another schedule (start 2026-12-01T11:00:00Z, slot 60.000 s)");
  }

  @Test
  void shardsThatHardlyOverlappedAndLateShardsAreNoted() {
    Path r0 = dir.resolve("a");
    Path r1 = dir.resolve("b");
    new Manifest(shard(0), "", List.of(level(r0, 0, whole(4, 4), shard0(), T0))).write(r0);
    Manifest.LevelEntry late = level(r1, 0, whole(4, 4), shard0(), T0.plusSeconds(2));
    new Manifest(shard(1), "", List.of(late.began(Duration.ofSeconds(2)))).write(r1);
    MeasuredLevel merged = ShardMerge.merge(folders(List.of(r0, r1)), false).get(0).levels().get(0);
    assertThat(merged.window()).isEqualTo(Duration.ofMillis(2100));
    assertThat(merged.warnings()).contains("shard 1 began 2.000 s after the level's slot")
        .anyMatch(w -> w.startsWith("the shards sent together for only 0.0% of the 2.100 s window (their first sends 2.000 s "
            + "apart)"));
  }

  /** A shard file whose records keep no chunk timings (a compact format) shows against its histograms. */
  @Test
  void recordsWithFewerSamplesThanTheHistogramsAreNoted() throws IOException {
    List<Path> shards = twoShards();
    Path file = shards.get(1).resolve("llmbench").resolve(SWEEP).resolve("C=4.json");
    ObjectNode root = (ObjectNode) JSON.readTree(file.toFile());
    for (JsonNode r : root.get("requests")) ((ObjectNode) r).set("chunk_arrivals_ms", JSON.createArrayNode());
    Files.writeString(file, JSON.writeValueAsString(root));
    List<ShardMerge.MergedSweep> merged = ShardMerge.merge(folders(shards), false);
    MeasuredLevel c4 = merged.get(0).levels().get(0);
    assertThat(c4.warnings()).contains("the shards' per-request records hold fewer samples than their histograms (ITL 4 of "
        + "8): the JSON's statistics of these come from the merged histograms (to 0.1%), the table and charts from the records");
    assertThat(c4.itl().mean()).as("the records: shard 0's gaps only").contains(Duration.ofMillis(40));

    Path out = dir.resolve("merged");
    MergedReports.write(merged, out);
    JsonNode json = ResultJson.read(Files.readString(out.resolve(SWEEP).resolve("C=4.json")));
    // Shard 0's four 40 ms gaps and shard 1's four 75 ms gaps, from the histograms.
    assertThat(json.get("mean_itl_ms").asDouble()).isCloseTo(57.5, within(0.06));
    assertThat(json.get("p99_itl_ms").asDouble()).isCloseTo(75.0, within(0.08));
    assertThat(LatencyHistograms.read(json.get("llmbench").get("histograms")).get(Metric.ITL).getTotalCount()).isEqualTo(8);
    assertThat(json.get("mean_ttft_ms").asDouble()).as("the records hold every TTFT: exact").isEqualTo(35.0);
  }

  @Test
  void theCommandLineMergesAndSaysWhenTheShardsDoNotAddUp() throws IOException {
    List<Path> shards = twoShards();
    Path out = dir.resolve("cli");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cli = new CommandLine(new MergeMain()).setErr(new PrintWriter(err, true))
        .setOut(new PrintWriter(new ByteArrayOutputStream(), true));
    assertThat(cli.execute("--out", out.toString(), shards.get(0).toString(), shards.get(1).toString())).isZero();
    assertThat(out.resolve("llmbench").resolve(SWEEP).resolve("C=4.json")).exists();

    assertThat(cli.execute("--out", dir.resolve("cli2").toString(), shards.get(0).toString())).isEqualTo(MergeMain.INCOMPLETE);
    assertThat(err.toString()).contains("shard 1 of 2 is not among the folders given").contains("--allow-partial");
    assertThat(cli.execute("--out", dir.resolve("cli3").toString(), dir.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("no shard.json in " + dir);
  }

  static void write(Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
