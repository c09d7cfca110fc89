package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Every sweep of the run that reports into one folder: the overview page beside the sweeps' folders
 * ({@code index.html}), rewritten as each sweep ends so that a run cut short still has one, and the console's last
 * lines, printed when the run closes it. Kept in the launcher session's JUnit store (Surefire executes each class on
 * its own within one session per JVM). The test JVMs of one build (Surefire's forks, its second execution) each
 * write their sweeps' rows under {@code .runs/<run>/}, the run named by the build process that started them all, and
 * each page lists every row of its run: a folder an earlier run left is never listed. (Gradle's workers and an IDE's
 * test JVMs share their daemon or IDE as the run: its rows last until the report folder is cleaned.)
 */
@API(status = INTERNAL)
public final class RunSweeps implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final Path rows;
  private boolean added;
  private boolean closed;

  /** @param root the report folder the sweeps' folders are in, where the overview goes */
  public RunSweeps(Path root) {
    this(root, runId());
  }

  RunSweeps(Path root, String run) {
    this.root = root;
    this.rows = root.resolve(".runs").resolve(run);
  }

  /** What starts a test JVM for the build without being the build: Surefire starts each fork through {@code sh -c}. */
  private static final Set<String> SHELLS = Set.of("sh", "dash", "bash", "zsh", "ksh", "cmd", "cmd.exe", "powershell.exe",
      "pwsh", "pwsh.exe");

  /**
   * The build's run: the nearest process above this JVM that is not a shell (Maven, Gradle's daemon, an IDE), by its id
   * and start, which all the build's test JVMs share; this JVM's own when there is none to ask about.
   */
  static String runId() {
    ProcessHandle self = ProcessHandle.current();
    Optional<ProcessHandle> up = self.parent();
    while (up.isPresent() && up.get().info().command().map(c -> SHELLS.contains(Path.of(c).getFileName().toString()))
        .orElse(false)) {
      up = up.get().parent();
    }
    ProcessHandle of = up.filter(p -> p.info().startInstant().isPresent()).orElse(self);
    return of.pid() + "-" + of.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
  }

  /** The overview page of a run reporting into {@code root}. */
  public static Path page(Path root) {
    return root.resolve("index.html");
  }

  /** The sweep ended: its row, and the page rewritten with every row of the run. */
  synchronized void add(SweepSummary summary, String folder) {
    added = true;
    try {
      Files.createDirectories(rows);
      replace(rows.resolve(folder + ".json"), JSON.writeValueAsString(json(RunOverview.Row.of(summary, folder))));
      replace(page(root), RunOverview.html(read()));
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the overview " + page(root)
          + "; check that the folder is writable, or set llmbench.report.dir to one that is", e);
    }
  }

  /** Every row of the run, in the order the sweeps started. */
  List<RunOverview.Row> read() throws IOException {
    List<RunOverview.Row> all = new ArrayList<>();
    if (!Files.isDirectory(rows)) return all;
    try (Stream<Path> files = Files.list(rows)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
        all.add(row(JSON.readTree(f.toFile())));
      }
    }
    all.sort(Comparator.comparing(RunOverview.Row::started));
    return all;
  }

  /**
   * Ends the run with its sweeps' verdicts in a few lines and where the overview is, once; nothing when this JVM ran no
   * sweep. Every row of the run so far: the last JVM of a build to end prints them all.
   */
  @Override
  public synchronized void close() {
    if (closed || !added) return;
    closed = true;
    try {
      System.out.print("\n" + RunOverview.console(read(), page(root)));
      System.out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the run's sweeps in " + rows, e);
    }
  }

  /** A complete file or none: another JVM of the run may read it at any time. */
  private static void replace(Path file, String content) throws IOException {
    Path temp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
    try {
      Files.writeString(temp, content, StandardCharsets.UTF_8);
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static ObjectNode json(RunOverview.Row r) {
    ObjectNode n = JSON.createObjectNode().put("title", r.title()).put("folder", r.folder())
        .put("status", r.verdict().status().name());
    r.verdict().reasons().forEach(n.putArray("reasons")::add);
    r.verdict().simulator().ifPresent(p -> n.put("simulator", p));
    return n.put("levels", r.levels()).put("requests", r.requests()).put("failed", r.failed()).put("headline", r.headline())
        .put("answer", r.answer()).put("started", r.started().toString());
  }

  private static RunOverview.Row row(JsonNode n) {
    List<String> reasons = new ArrayList<>();
    n.path("reasons").forEach(r -> reasons.add(r.asText()));
    SweepVerdict verdict = new SweepVerdict(SweepVerdict.Status.valueOf(n.path("status").asText()), reasons,
        n.hasNonNull("simulator") ? Optional.of(n.get("simulator").asText()) : Optional.empty());
    return new RunOverview.Row(n.path("title").asText(), n.path("folder").asText(), verdict, n.path("levels").asInt(),
        n.path("requests").asLong(), n.path("failed").asLong(), n.path("headline").asText(), n.path("answer").asText(),
        Instant.parse(n.path("started").asText()));
  }
}
