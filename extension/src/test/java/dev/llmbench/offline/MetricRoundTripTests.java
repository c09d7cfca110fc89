package dev.llmbench.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Carriage;
import dev.llmbench.internal.report.ReportOptions;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.shard.LevelFile;
import dev.llmbench.internal.vllm.VllmResultFiles;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.sessions.TurnFigures;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@link Metric} written through every file format and read back equal: a live level (measured, an
 * SLO and a failure, reasoning and queue time) through the level document read offline and merged as a
 * shard's file, through the vLLM names at its top read as a {@code vllm bench serve} result, and through a
 * CSV table. Each format's codec says in its table ({@link Carriage}) which metrics it carries; a metric
 * with no entry fails here, naming the file to edit.
 */
class MetricRoundTripTests {

  @TempDir
  Path dir;

  /** One file format: its codec's table, the file that holds it, and how a level goes through it. */
  record Format(String name, String file, Map<Metric, Carriage> carries, List<String> statistics, RoundTrip trip) {}

  interface RoundTrip {
    SweepLevelResult apply(MeasuredLevel level, Path dir) throws IOException;
  }

  static MeasuredLevel live() {
    return Levels.closed(2).slo(ServiceLevels.none().withTtft(Duration.ofMillis(45))).percentiles(50.0, 90.0, 99.0)
        .request(Traces.at(0).content(20, 45, 70, 95).usage(12, 4).build())
        .request(Traces.at(0).reasoning(30, 50).content(80, 120, 150).usage(12, 5).build())
        .request(Traces.at(95).scheduledAt(70).content(40, 60, 85).usage(10, 3).build())
        .request(Traces.at(150).scheduledAt(140).content(55, 90, 130, 170, 200).usage(14, 5).build())
        .request(Traces.at(160).failed(ErrorKind.HTTP_STATUS, 503, "busy").end(10).build())
        .request(Traces.at(170).content(25, 35, 60).usage(11, 3).build())
        // A session's turns (the cache serving the history), checked replies (a tool call, an unparsed JSON answer)
        // and an embeddings answer: what the per-turn, reply and embeddings figures are read from.
        .request(Traces.at(175).content(30, 50).usage(40, 2).cachedTokens(0).build().withTurn(0))
        .request(Traces.at(180).toolCall(35).content(55).usage(60, 2).cachedTokens(36).build().withTurn(1)
            .withReplyCheck(true, null))
        .request(Traces.at(185).content(45, 65).usage(12, 2).build().withReplyCheck(false, "not JSON: unexpected end"))
        .request(Traces.at(190).usage(20, 0).embeddings(4).end(30).build())
        .build();
  }

  static List<Format> formats() {
    List<String> reported = List.of("mean", "p50", "p90", "p99");
    return List.of(
        new Format("level document, read offline", "internal/offline/RunFolder.java (from internal/report/ResultJson.java)",
            RunFolder.CARRIES, reported, (level, dir) -> read(levelDocument(level, dir))),
        new Format("level document, merged as a shard's", "internal/report/ResultJson.java", ResultJson.CARRIES, reported,
            MetricRoundTripTests::merged),
        new Format("vllm bench serve result (the level document's vLLM fields)", "internal/vllm/VllmResultFiles.java",
            VllmResultFiles.CARRIES, List.of("mean", "p50", "p99"), MetricRoundTripTests::asVllmResult),
        new Format("CSV table", "internal/offline/CsvTable.java", CsvTable.CARRIES, List.of("mean", "p50", "p99"),
            (level, dir) -> read(Files.writeString(dir.resolve("table.csv"), CsvTable.write(List.of(level), List.of(99.0))))));
  }

  @Test
  void everyMetricReadsBackEqualThroughEveryFormat() throws IOException {
    MeasuredLevel live = live();
    assertThat(live.failed()).isEqualTo(1);
    assertThat(live.goodput().perSecond()).isLessThan(live.requestThroughput().perSecond()); // the SLO decides something
    // Each new figure has a value to lose: not the defaults a reader without the records' fields would give.
    assertThat(live.unparsedRate()).isEqualTo(0.5);
    assertThat(live.toolCallTtft().count()).isEqualTo(1);
    assertThat(live.inputThroughput().perSecond()).isGreaterThan(0).isNotEqualTo(live.requestThroughput().perSecond());
    List<String> violations = new ArrayList<>();
    int checked = 0;
    for (Format f : formats()) {
      violations.addAll(missingEntries(f.name(), f.file(), f.carries()));
      Path own = Files.createDirectories(dir.resolve(Integer.toString(formats().indexOf(f))));
      SweepLevelResult read = f.trip().apply(live, own);
      for (Metric m : Metric.values()) {
        Carriage c = f.carries().get(m);
        if (c == null || !c.carried()) continue;
        checked++;
        if (m.isLatency()) {
          for (String stat : f.statistics()) {
            Optional<Duration> want = statistic(m.distributionOf(live), stat);
            Optional<Duration> got = statistic(m.distributionOf(read), stat);
            boolean equal = want.isPresent() && got.isPresent() && Math.abs(want.get().toNanos() - got.get().toNanos()) <= 1_000;
            if (!equal) violations.add(f.name() + ": " + m + " " + stat + " was " + got + ", written " + want);
          }
        } else {
          double want = m.valueOf(live);
          double got = m.valueOf(read);
          if (!(Math.abs(want - got) <= 1e-9 * Math.max(1, Math.abs(want)))) {
            violations.add(f.name() + ": " + m + " was " + got + ", written " + want);
          }
        }
      }
    }
    assertThat(violations).as("every metric through every format").isEmpty();
    // 4 formats; the level document carries all 16 metrics merged and 14 offline, vLLM's result and the table 8.
    assertThat(checked).isEqualTo(16 + 14 + 8 + 8);
  }

  /** What the level cost the client, its run-queue wait included, is read back as it was written. */
  @Test
  void theClientsLoadReadsBackEqualThroughTheLevelDocument() throws IOException {
    ClientLoad load = new ClientLoad(2, Duration.ofMillis(530), 0.18, 0.45, Duration.ofMillis(2), 0.6, 1.0, Duration.ofMillis(1),
        Duration.ofMillis(3), Duration.ofMillis(20), 21_000);
    SweepLevelResult read = formats().get(0).trip().apply(Levels.closed(2).request(Traces.at(0).content(20, 45).usage(12, 2)
        .build()).clientLoad(load).build(), Files.createDirectories(dir.resolve("client-load")));
    assertThat(read.clientLoad()).hasValue(load);
  }

  /** The sessions feature's per-turn figures are read off the requests: the two formats that keep them give them back. */
  @Test
  void perTurnFiguresReadBackEqualThroughTheLevelDocument() throws IOException {
    MeasuredLevel live = live();
    List<TurnFigures> written = TurnFigures.of(live.requests());
    assertThat(written).extracting(TurnFigures::turn).containsExactly(1, 2);
    assertThat(written.get(1).cachedTokens()).hasValue(36.0);
    for (Format f : formats().subList(0, 2)) {
      Path own = Files.createDirectories(dir.resolve("turns-" + formats().indexOf(f)));
      SweepLevelResult read = f.trip().apply(live, own);
      assertThat(TurnFigures.of(read.requests())).as(f.name()).usingRecursiveComparison().isEqualTo(written);
      assertThat(read.requests()).as(f.name()).extracting(r -> r.unparsedBecause().orElse(""))
          .isEqualTo(live.requests().stream().map(r -> r.unparsedBecause().orElse("")).toList());
    }
  }

  @Test
  void aMetricWithoutAnEntryIsNamedWithTheFileToEdit() {
    Map<Metric, Carriage> table = new EnumMap<>(ResultJson.CARRIES);
    table.remove(Metric.QUEUE_TIME);
    assertThat(missingEntries("level document", "internal/report/ResultJson.java", table)).containsExactly(
        "Metric.QUEUE_TIME has no entry in the level document's table (CARRIES in internal/report/ResultJson.java): "
            + "say how the format carries it (Carriage.as) or why it does not (Carriage.not)");
  }

  static List<String> missingEntries(String format, String file, Map<Metric, Carriage> carries) {
    List<String> out = new ArrayList<>();
    for (Metric m : Metric.values()) {
      if (!carries.containsKey(m)) {
        out.add("Metric." + m + " has no entry in the " + format + "'s table (CARRIES in " + file + "): say how the format "
            + "carries it (Carriage.as) or why it does not (Carriage.not)");
      }
    }
    return out;
  }

  private static Optional<Duration> statistic(Distribution d, String stat) {
    return stat.equals("mean") ? d.mean() : d.percentile(Double.parseDouble(stat.substring(1)));
  }

  private static Path levelDocument(MeasuredLevel level, Path dir) throws IOException {
    return Files.writeString(dir.resolve("C=2.json"), ResultJson.write(level, new ReportOptions(true)));
  }

  private static SweepLevelResult read(Path file) {
    List<SweepLevelResult> levels = SweepAnalysis.read(file).levels();
    assertThat(levels).hasSize(1);
    return levels.get(0);
  }

  /** As the merge rebuilds a level from one shard's file; the SLO and percentiles are the manifest's, given here. */
  private static SweepLevelResult merged(MeasuredLevel level, Path dir) throws IOException {
    LevelFile file = LevelFile.read(levelDocument(level, dir));
    return new MeasuredLevel(level.plan(), level.endpoint(), file.metrics(0, Instant.EPOCH), level.serviceLevels(),
        level.percentiles(), level.stopReason(), null, List.of());
  }

  /** The level document's top is vllm bench serve's result: without LLMBench's own part it reads as one. */
  private static SweepLevelResult asVllmResult(MeasuredLevel level, Path dir) throws IOException {
    ObjectNode root = (ObjectNode) ResultJson.read(ResultJson.write(level, new ReportOptions(true)));
    root.remove(List.of(ResultJson.OWN, ResultJson.REQUESTS));
    return read(Files.writeString(dir.resolve("openai-chat-infqps-concurrency2-m-20260801-101500.json"), root.toString()));
  }
}
