package dev.llmbench.cli.merge;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.Metric;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.LatencyHistograms;
import dev.llmbench.internal.report.RequestRecord;
import dev.llmbench.internal.shard.LevelFile;
import dev.llmbench.internal.shard.Manifest;
import dev.llmbench.internal.shard.Share;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * Merges the shards of a run into the levels one run would have measured, as Gatling's report-only mode does
 * with the simulation logs of several injectors: every shard's requests, back from its level files, go on one
 * wall-clock timeline (each shard's first send, from its manifest), so the merged window runs from the
 * earliest send to the latest end of any shard and every figure is computed from the union, exactly as for a
 * single run. Checks first ({@link ShardChecks}) that the shards belong together and that none is missing a
 * level, and lists every problem at once; {@link MergedReports} writes the result.
 */
@API(status = INTERNAL)
public final class ShardMerge {

  /** A shard's lateness, or the shards' misalignment, worth a note. */
  private static final Duration NOTEWORTHY = Duration.ofMillis(500);

  /** Below this share of the window the shards overlapped, the window's figures understate the load. */
  static final double MIN_OVERLAP = 0.9;

  private ShardMerge() {}

  /**
   * A sweep as one run would have left it.
   *
   * @param fromHistograms by level label, the latencies whose statistics come from the shards' summed histograms,
   *                       because the per-request records hold fewer samples of them (compact records)
   */
  public record MergedSweep(String className, String method, List<MeasuredLevel> levels,
      Map<String, Map<Metric, Histogram>> fromHistograms) {

    public MergedSweep(String className, String method, List<MeasuredLevel> levels) {
      this(className, method, levels, Map.of());
    }

    public String id() {
      return className.replace('$', '.') + "." + method;
    }
  }

  /**
   * The shards do not add up to a run: every reason, one a line.
   */
  public static final class IncompleteException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    IncompleteException(List<String> problems) {
      super("the shards do not add up to one run:\n  - " + String.join("\n  - ", problems)
          + "\n(--allow-partial merges what there is, and says in each level what is missing)");
      this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
      return problems;
    }
  }

  /**
   * The merged sweeps, in run order.
   *
   * @param allowPartial merge levels some shard is missing, noting it in them, instead of failing
   * @throws IncompleteException listing every problem, unless {@code allowPartial}
   */
  public static List<MergedSweep> merge(List<ShardFolder> shards, boolean allowPartial) {
    if (shards.isEmpty()) throw new IllegalArgumentException("no shard to merge");
    List<String> problems = new ArrayList<>(ShardChecks.shards(shards));
    Map<String, List<ShardPart>> byLevel = new LinkedHashMap<>();
    shards.stream().sorted(Comparator.comparingInt(ShardFolder::index)).forEach(s -> s.manifest().levels()
        .forEach(l -> byLevel.computeIfAbsent(l.sweepId() + " " + l.label(), k -> new ArrayList<>())
            .add(new ShardPart(s, l))));
    int count = shards.get(0).manifest().shard().count();
    Map<String, MergedSweep> sweeps = new LinkedHashMap<>();
    Map<String, Map<String, Map<Metric, Histogram>>> fromHistograms = new LinkedHashMap<>();
    List<List<ShardPart>> levels = byLevel.values().stream()
        .sorted(Comparator.comparingInt(parts -> parts.get(0).level().slot())).toList();
    for (List<ShardPart> parts : levels) {
      List<String> missing = ShardChecks.level(parts, count, problems);
      Manifest.LevelEntry first = parts.get(0).level();
      List<ShardPart> measured = parts.stream().filter(p -> p.level().result().isPresent()).toList();
      if (measured.isEmpty()) continue;
      Map<Metric, Histogram> histograms = new LinkedHashMap<>();
      MeasuredLevel merged = level(first, measured, parts, missing, count, histograms);
      sweeps.computeIfAbsent(first.sweepId(), k -> new MergedSweep(first.className(), first.method(), new ArrayList<>()))
          .levels().add(merged);
      if (!histograms.isEmpty()) {
        fromHistograms.computeIfAbsent(first.sweepId(), k -> new LinkedHashMap<>()).put(first.label(), histograms);
      }
    }
    if (!problems.isEmpty() && !allowPartial) throw new IncompleteException(problems);
    return sweeps.values().stream().map(s -> new MergedSweep(s.className(), s.method(), List.copyOf(s.levels()),
        fromHistograms.getOrDefault(s.id(), Map.of()))).toList();
  }

  /** The merged level; {@code fromHistograms} receives the latencies whose statistics must come from histograms. */
  private static MeasuredLevel level(Manifest.LevelEntry first, List<ShardPart> measured, List<ShardPart> all,
      List<String> missing, int count, Map<Metric, Histogram> fromHistograms) {
    Instant t0 = measured.stream().map(p -> p.level().result().orElseThrow().firstSend()).min(Comparator.naturalOrder())
        .orElseThrow();
    List<RequestMetrics> requests = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<long[]> spans = new ArrayList<>();
    Map<Metric, Histogram> histograms = new LinkedHashMap<>();
    boolean everyFileHasHistograms = true;
    boolean serverMetrics = false;
    for (ShardPart p : measured) {
      Manifest.Result result = p.level().result().orElseThrow();
      LevelFile file = LevelFile.read(p.file());
      List<RequestMetrics> mine = file.metrics(Duration.between(t0, result.firstSend()).toNanos(), result.firstSend());
      requests.addAll(mine);
      mine.stream().mapToLong(r -> r.trace().startNanos()).min()
          .ifPresent(s -> spans.add(new long[] {s, mine.stream().mapToLong(r -> r.trace().endNanos()).max().orElseThrow()}));
      everyFileHasHistograms &= !file.histograms().isEmpty();
      file.histograms().forEach((m, h) -> histograms.merge(m, h, (sum, more) -> {
        sum.add(more);
        return sum;
      }));
      serverMetrics |= file.serverMetrics();
    }
    notes.add(composition(all, count));
    if (!missing.isEmpty()) {
      notes.add("incomplete: " + String.join("; ", missing) + ": the figures cover only what the other shards sent");
    }
    for (ShardPart p : measured) {
      p.level().late().filter(l -> l.compareTo(NOTEWORTHY) > 0).ifPresent(l -> notes.add("shard " + p.shard().index()
          + " began " + Formats.duration(l) + " after the level's slot"));
    }
    overlap(spans).ifPresent(notes::add);
    if (serverMetrics) {
      notes.add("the server's /metrics deltas are per shard (each shard's delta counts every shard's traffic) and are "
          + "not merged: see the shards' own reports");
    }
    List<EndpointInfo> endpoints = measured.stream().map(p -> p.level().result().orElseThrow().endpoint()).toList();
    if (endpoints.stream().map(e -> e.url() + " " + e.model()).distinct().count() > 1) {
      notes.add("the shards measured different endpoints: " + endpoints.stream().map(EndpointInfo::toString).distinct()
          .collect(Collectors.joining(", ")));
    }
    EndpointInfo e = endpoints.get(0);
    Duration longestWait = endpoints.stream().map(EndpointInfo::timeToReady).max(Comparator.naturalOrder()).orElseThrow();
    EndpointInfo endpoint = new EndpointInfo(e.url(), e.model(), e.api(), e.embedded(), e.serverVersion(), longestWait,
        List.of(), e.startup(), e.roundTrip(), e.deployment());
    if (everyFileHasHistograms) {
      fromHistograms.putAll(fewerInRecords(requests, histograms));
      if (!fromHistograms.isEmpty()) {
        notes.add("the shards' per-request records hold fewer samples than their histograms ("
            + fromHistograms.entrySet().stream().map(h -> h.getKey().label() + " " + inRecords(requests, h.getKey()) + " of "
                + h.getValue().getTotalCount()).collect(Collectors.joining(", "))
            + "): the JSON's statistics of these come from the merged histograms (to 0.1%), the table and charts from "
            + "the records");
      }
    }
    return new MeasuredLevel(first.whole(), endpoint, requests, first.slo(), first.percentiles(), stopReason(measured), null,
        notes);
  }

  /** {@code merged from 2 shards: shard 0 C=4, 10 requests (host a); shard 1 skipped}. */
  private static String composition(List<ShardPart> parts, int count) {
    List<String> each = new ArrayList<>();
    for (ShardPart p : parts) {
      Manifest.LevelEntry l = p.level();
      String host = p.shard().manifest().host().isEmpty() ? "" : " on " + p.shard().manifest().host();
      if (!l.skipped().isEmpty()) each.add("shard " + p.shard().index() + " had no share");
      else each.add("shard " + p.shard().index() + " " + l.share().map(Share::describe).orElse("?") + host);
    }
    return "merged from " + count + " shards, their requests on one wall-clock timeline: " + String.join("; ", each);
  }

  /** A note when the shards' spans (first send to last end) overlap for too little of the merged window. */
  private static Optional<String> overlap(List<long[]> spans) {
    if (spans.size() < 2) return Optional.empty();
    long start = spans.stream().mapToLong(s -> s[0]).min().orElseThrow();
    long end = spans.stream().mapToLong(s -> s[1]).max().orElseThrow();
    long together = Math.max(0, spans.stream().mapToLong(s -> s[1]).min().orElseThrow()
        - spans.stream().mapToLong(s -> s[0]).max().orElseThrow());
    if (end == start || together >= MIN_OVERLAP * (end - start)) return Optional.empty();
    long startSpread = spans.stream().mapToLong(s -> s[0]).max().orElseThrow() - start;
    return Optional.of("the shards sent together for only " + Formats.percent((double) together / (end - start)) + " of the "
        + Formats.duration(Duration.ofNanos(end - start)) + " window (their first sends " + Formats.duration(
        Duration.ofNanos(startSpread)) + " apart): over the window the server carried less than the level's load; "
        + "check that the shards' clocks agree and that llmbench.shard.slot is long enough");
  }

  /** The run's reason when the shards agree; a shard stopped by its JVM's shutdown marks the whole level. */
  private static StopReason stopReason(List<ShardPart> measured) {
    List<StopReason> reasons = measured.stream().map(p -> p.level().result().orElseThrow().stopReason()).distinct().toList();
    return reasons.contains(StopReason.INTERRUPTED) ? StopReason.INTERRUPTED : reasons.get(0);
  }

  /**
   * The latencies of which the union's records hold fewer samples than the shards' summed histograms: a shard
   * whose file kept less than it measured (compact records) shows here.
   */
  private static Map<Metric, Histogram> fewerInRecords(List<RequestMetrics> requests, Map<Metric, Histogram> histograms) {
    Map<Metric, Histogram> union = LatencyHistograms.of(records(requests));
    Map<Metric, Histogram> fewer = new LinkedHashMap<>();
    histograms.forEach((m, h) -> {
      if (union.get(m).getTotalCount() < h.getTotalCount()) fewer.put(m, h);
    });
    return fewer;
  }

  private static long inRecords(List<RequestMetrics> requests, Metric m) {
    return LatencyHistograms.of(records(requests)).get(m).getTotalCount();
  }

  private static List<RequestRecord> records(List<RequestMetrics> requests) {
    long start = requests.stream().mapToLong(r -> r.trace().startNanos()).min().orElse(0);
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) records.add(RequestRecord.of(i, requests.get(i), start, true));
    return records;
  }
}
