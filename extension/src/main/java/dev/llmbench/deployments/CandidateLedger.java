package dev.llmbench.deployments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.internal.shard.LevelFile;
import dev.llmbench.result.StopReason;
import dev.llmbench.server.ServerStartup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a matrix of launched candidates has measured so far, kept on disk so that a run stopped part way (the JVM
 * killed, the machine rebooted) is resumed: {@code ledger.json} in the matrix's folder names the matrix, a fingerprint
 * of the sweep's settings and, per candidate, a fingerprint of its own (its launch command, model and API), the
 * files of the levels it has measured (written when each level ends) and when it was measured completely. A run with
 * the same settings reuses a completed candidate's levels instead of launching it again ({@code vllm bench sweep
 * serve --resume} skips the combinations whose results exist); a changed sweep setting invalidates every candidate, a
 * changed candidate only itself. Another feature may keep per-candidate data beside it, in {@link #candidateDir}.
 */
final class CandidateLedger {

  static final String FILE = "ledger.json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SHOWN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  /** A candidate's entry. */
  static final class Entry {
    final String settings;
    final Map<String, String> levels = new LinkedHashMap<>(); // label -> file, relative to the folder
    Optional<Instant> completed = Optional.empty();
    Optional<Instant> firstSend = Optional.empty();
    Optional<Duration> readySinceLaunch = Optional.empty();
    String startup = "";

    Entry(String settings) {
      this.settings = settings;
    }
  }

  private final Path dir;
  private final String matrix;
  private final String sweep;
  private final Map<String, List<String>> labels; // candidate -> its level labels, in order
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  /** The candidates reused from the earlier run, with when they were completed. */
  private final Map<String, Instant> reused = new LinkedHashMap<>();
  private final List<String> invalidated = new ArrayList<>();

  private CandidateLedger(Path dir, String matrix, String sweep, Map<String, List<String>> labels) {
    this.dir = dir;
    this.matrix = matrix;
    this.sweep = sweep;
    this.labels = labels;
  }

  /**
   * The ledger in {@code dir}, read when there is one: candidates whose settings match and which were measured
   * completely are reused; the others are measured (again).
   *
   * @param settings each candidate's fingerprint, in the matrix's order
   * @throws IllegalArgumentException when {@code dir} holds the ledger of another matrix
   */
  static CandidateLedger open(Path dir, String matrix, String sweep, Map<String, String> settings,
      Map<String, List<String>> labels) {
    CandidateLedger ledger = new CandidateLedger(dir, matrix, sweep, labels);
    Path file = dir.resolve(FILE);
    if (Files.isRegularFile(file)) {
      JsonNode root;
      try {
        root = JSON.readTree(Files.readString(file));
      } catch (IOException e) {
        throw new IllegalArgumentException("the resume folder's " + file + " does not read (" + e.getMessage()
            + "); delete it to measure every candidate again", e);
      }
      String theirs = root.path("matrix").asText("");
      if (!theirs.equals(matrix)) {
        throw new IllegalArgumentException("the resume folder " + dir + " holds the candidates of " + theirs + ", not of "
            + matrix + ": nothing of it is reused, and nothing is written over it; point llmbench.deployments.resume-dir "
            + "at this matrix's own folder, or at an empty one");
      }
      boolean sameSweep = root.path("sweep").asText("").equals(sweep);
      root.path("candidates").fields().forEachRemaining(c -> {
        String name = c.getKey();
        JsonNode n = c.getValue();
        if (!settings.containsKey(name)) return; // no longer in the matrix
        if (!sameSweep || !n.path("settings").asText("").equals(settings.get(name))) {
          if (n.has("completed") || n.path("levels").size() > 0) ledger.invalidated.add(name);
          return;
        }
        Entry e = new Entry(settings.get(name));
        n.path("levels").fields().forEachRemaining(l -> e.levels.put(l.getKey(), l.getValue().asText()));
        e.completed = n.has("completed") ? Optional.of(Instant.parse(n.path("completed").asText())) : Optional.empty();
        e.firstSend = n.has("first_send") ? Optional.of(Instant.parse(n.path("first_send").asText())) : Optional.empty();
        e.readySinceLaunch = n.has("ready_since_launch_s")
            ? Optional.of(Duration.ofNanos(Math.round(n.path("ready_since_launch_s").asDouble() * 1e9))) : Optional.empty();
        e.startup = n.path("startup").asText("");
        boolean whole = e.completed.isPresent() && e.levels.keySet().containsAll(labels.getOrDefault(name, List.of()))
            && e.levels.values().stream().allMatch(f -> Files.isRegularFile(dir.resolve(f)));
        if (whole) {
          ledger.entries.put(name, e);
          ledger.reused.put(name, e.completed.get());
        }
      });
    }
    settings.forEach((name, fingerprint) -> ledger.entries.putIfAbsent(name, new Entry(fingerprint)));
    return ledger;
  }

  Path dir() {
    return dir;
  }

  /** Where a feature keeps what it knows of {@code candidate} across restarts of it and of the run. */
  Path candidateDir(String candidate) {
    return dir.resolve(candidate);
  }

  /** Whether {@code candidate} is one of the matrix's launched candidates, kept in this ledger. */
  boolean holds(String candidate) {
    return entries.containsKey(candidate);
  }

  /** The matrix's launched candidates, in its order. */
  java.util.Set<String> candidates() {
    return entries.keySet();
  }

  Map<String, Instant> reused() {
    return reused;
  }

  List<String> invalidated() {
    return invalidated;
  }

  static String shown(Instant at) {
    return SHOWN.format(at);
  }

  /** {@code f16 (measured completely at 2026-12-07 12:40:03 UTC)}, each reused candidate. */
  String reusedDescription() {
    List<String> parts = new ArrayList<>();
    reused.forEach((c, at) -> parts.add(c + " (measured completely at " + shown(at) + ")"));
    return String.join(", ", parts);
  }

  /** The level of a reused candidate, rebuilt from its file; empty for a candidate to measure. */
  synchronized Optional<MeasuredLevel> recorded(LevelContext level, String candidate) {
    if (!reused.containsKey(candidate)) return Optional.empty();
    Entry e = entries.get(candidate);
    String label = level.plan().label();
    String file = e.levels.get(label);
    if (file == null) return Optional.empty();
    LevelFile read = LevelFile.read(dir.resolve(file));
    JsonNode doc = ResultJson.read(readString(dir.resolve(file)));
    EndpointInfo was = ResultJson.readLevel(doc).endpoint();
    ServerStartup startup = e.readySinceLaunch.isPresent() || !e.startup.isEmpty()
        ? new ServerStartup(Optional.empty(), List.of(), List.of(), e.readySinceLaunch, e.startup) : ServerStartup.NONE;
    EndpointInfo endpoint = new EndpointInfo(was.url(), was.model(), was.api(), Optional.empty(), was.serverVersion(),
        was.timeToReady(), List.of(), startup, Optional.empty(), Optional.of(candidate));
    List<RequestMetrics> requests = read.metrics(0, e.firstSend.orElse(e.completed.orElseThrow()));
    return Optional.of(new MeasuredLevel(level.plan(), endpoint, requests, level.slo(), level.percentiles(),
        ResultJson.readLevel(doc).stopReason(), null, List.of("reused from the run that measured " + candidate
            + " completely at " + shown(reused.get(candidate)) + " (" + dir.resolve(file) + "): not measured again")));
  }

  /**
   * Keeps a measured level of {@code candidate}: its file, and the candidate completed once every level of it is
   * kept. A level a JVM's shutdown cut short is not kept: the candidate is measured again.
   */
  synchronized void measured(MeasuredLevel level, String candidate) {
    if (reused.containsKey(candidate) || !entries.containsKey(candidate)) return;
    if (level.stopReason() == StopReason.INTERRUPTED) return;
    Entry e = entries.get(candidate);
    List<String> mine = labels.getOrDefault(candidate, List.of());
    if (mine.indexOf(level.label()) == 0) { // the candidate (re)starts: what an earlier, partial run kept goes
      e.levels.clear();
      e.completed = Optional.empty();
      e.firstSend = Optional.empty();
    }
    String file = candidate + "/" + ByDeployment.load(level).replaceAll("[^A-Za-z0-9.=_-]", "_") + ".json";
    write(dir.resolve(file), ResultJson.write(level));
    e.levels.put(level.label(), file);
    if (e.firstSend.isEmpty()) e.firstSend = Optional.of(Instant.now());
    EndpointInfo endpoint = level.endpoint();
    e.readySinceLaunch = endpoint.startup().readySinceLaunch().or(() -> Optional.of(endpoint.timeToReady()));
    e.startup = endpoint.startup().summary();
    if (e.levels.keySet().containsAll(mine)) e.completed = Optional.of(Instant.now());
    save();
  }

  private void save() {
    ObjectNode root = JSON.createObjectNode();
    root.put("matrix", matrix);
    root.put("sweep", sweep);
    ObjectNode candidates = root.putObject("candidates");
    entries.forEach((name, e) -> {
      if (e.levels.isEmpty()) return;
      ObjectNode n = candidates.putObject(name);
      n.put("settings", e.settings);
      ObjectNode levels = n.putObject("levels");
      e.levels.forEach(levels::put);
      e.firstSend.ifPresent(t -> n.put("first_send", t.toString()));
      e.completed.ifPresent(t -> n.put("completed", t.toString()));
      e.readySinceLaunch.ifPresent(d -> n.put("ready_since_launch_s", d.toNanos() / 1e9));
      n.put("startup", e.startup);
    });
    try {
      write(dir.resolve(FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Written whole or not at all: a JVM killed while writing leaves the previous file. */
  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Path temp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(temp, text, StandardCharsets.UTF_8);
      try {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
    }
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** A short, stable fingerprint of {@code text}: values that may be secrets are never written as they are. */
  static String fingerprint(String text) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
