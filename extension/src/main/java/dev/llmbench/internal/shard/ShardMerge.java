package dev.llmbench.internal.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.Metric;
import dev.llmbench.StopReason;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.deployments.DeploymentsFeature;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.ConsoleReporter;
import dev.llmbench.internal.report.FileReporter;
import dev.llmbench.internal.report.LatencyHistograms;
import dev.llmbench.internal.report.RequestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * Merges the shards of a run into the levels one run would have measured, as Gatling's report-only mode does
 * with the simulation logs of several injectors: every shard's requests, back from its level files, go on one
 * wall-clock timeline (each shard's first send, from its manifest), so the merged window runs from the
 * earliest send to the latest end of any shard and every figure is computed from the union, exactly as for a
 * single run. Checks first that the shards belong together and that none is missing a level, and lists
 * every problem at once.
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

  /** One shard's entry for a level, with its folder. */
  private record Part(ShardFolder shard, Manifest.Level level) {}

  /**
   * The merged sweeps, in run order.
   *
   * @param allowPartial merge levels some shard is missing, noting it in them, instead of failing
   * @throws IncompleteException listing every problem, unless {@code allowPartial}
   */
  public static List<MergedSweep> merge(List<ShardFolder> shards, boolean allowPartial) {
    if (shards.isEmpty()) throw new IllegalArgumentException("no shard to merge");
    List<String> problems = new ArrayList<>(checkShards(shards));
    Map<String, List<Part>> byLevel = new LinkedHashMap<>();
    shards.stream().sorted(Comparator.comparingInt(ShardFolder::index)).forEach(s -> s.manifest().levels()
        .forEach(l -> byLevel.computeIfAbsent(l.sweepId() + " " + l.label(), k -> new ArrayList<>()).add(new Part(s, l))));
    int count = shards.get(0).manifest().shard().count();
    Map<String, MergedSweep> sweeps = new LinkedHashMap<>();
    Map<String, Map<String, Map<Metric, Histogram>>> fromHistograms = new LinkedHashMap<>();
    List<List<Part>> levels = byLevel.values().stream()
        .sorted(Comparator.comparingInt(parts -> parts.get(0).level().slot())).toList();
    for (List<Part> parts : levels) {
      List<String> missing = checkLevel(parts, count, problems);
      Manifest.Level first = parts.get(0).level();
      List<Part> measured = parts.stream().filter(p -> p.level().result().isPresent()).toList();
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

  /** The shards are one run's: one count, each index once, one schedule. */
  private static List<String> checkShards(List<ShardFolder> shards) {
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
  private static List<String> checkLevel(List<Part> parts, int count, List<String> problems) {
    Manifest.Level first = parts.get(0).level();
    String level = first.label() + " of " + first.sweepId();
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      Optional<Part> part = parts.stream().filter(p -> p.shard().index() == index).findFirst();
      if (part.isEmpty()) {
        missing.add("shard " + i + " never reached it");
        continue;
      }
      Manifest.Level l = part.get().level();
      if (l.skipped().isEmpty() && l.result().isEmpty()) {
        missing.add("shard " + i + " began it but wrote no result (the level failed there: see that shard's log)");
      } else if (l.result().isPresent() && !Files.isRegularFile(file(part.get()))) {
        missing.add("shard " + i + "'s " + file(part.get()) + " is missing");
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
  private static String plan(Manifest.Level l) {
    return Share.describe(l.whole()) + ", max_tokens " + l.whole().maxTokens() + ", input " + l.whole().inputTokens()
        + ", prompts " + l.whole().workload().prompts().name() + ", warm-up " + l.whole().warmupRequests() + ", seed "
        + l.whole().seed();
  }

  private static Path file(Part p) {
    return p.shard().reports().resolve(p.level().sweepId()).resolve(FileReporter.fileName(p.level().label()) + ".json");
  }

  /** The merged level; {@code fromHistograms} receives the latencies whose statistics must come from histograms. */
  private static MeasuredLevel level(Manifest.Level first, List<Part> measured, List<Part> all, List<String> missing,
      int count, Map<Metric, Histogram> fromHistograms) {
    Instant t0 = measured.stream().map(p -> p.level().result().orElseThrow().firstSend()).min(Comparator.naturalOrder())
        .orElseThrow();
    List<RequestMetrics> requests = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<long[]> spans = new ArrayList<>();
    Map<Metric, Histogram> histograms = new LinkedHashMap<>();
    boolean everyFileHasHistograms = true;
    boolean serverMetrics = false;
    for (Part p : measured) {
      Manifest.Result result = p.level().result().orElseThrow();
      LevelFile file = LevelFile.read(file(p));
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
    for (Part p : measured) {
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
  private static String composition(List<Part> parts, int count) {
    List<String> each = new ArrayList<>();
    for (Part p : parts) {
      Manifest.Level l = p.level();
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
  private static StopReason stopReason(List<Part> measured) {
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

  /**
   * Writes the merged sweeps as a run writes its own: each level's JSON and CSV, then each sweep's table,
   * analysis, charts and HTML page, under {@code reportDir}; the tables are printed too.
   */
  public static void write(List<MergedSweep> sweeps, Path reportDir) {
    BenchListener listener = Listeners.broadcast(List.of(new ConsoleReporter(reportDir), new FileReporter(reportDir)));
    for (MergedSweep s : sweeps) {
      SweepRun run = new SweepRun(s.className(), s.method(), listener);
      // What the levels alone tell, as the run's own sweep told it: the deployments' comparison.
      run.add(DeploymentsFeature.of(s.levels()));
      s.levels().forEach(run::measured);
      run.finish();
      for (MeasuredLevel level : s.levels()) {
        Map<Metric, Histogram> histograms = s.fromHistograms().getOrDefault(level.label(), Map.of());
        if (histograms.isEmpty()) continue;
        LevelFile.useHistograms(reportDir.resolve(s.id()).resolve(FileReporter.fileName(level.label()) + ".json"), histograms,
            level.percentiles());
      }
    }
  }
}
