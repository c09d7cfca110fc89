package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Every sweep of the run that reports into one folder: the overview page beside the sweeps' folders
 * ({@code index.html}), rewritten as each sweep ends so that a run cut short still has one, and the console's last
 * lines, printed when the run closes it. A run here is the launcher session: the build tool's whole test run in one
 * JVM (Surefire executes each class on its own within one session), kept in the session's JUnit store.
 */
@API(status = INTERNAL)
public final class RunSweeps implements AutoCloseable {

  private final Path root;
  private final List<RunOverview.Row> rows = new ArrayList<>();
  private boolean closed;

  /** @param root the report folder the sweeps' folders are in, where the overview goes */
  public RunSweeps(Path root) {
    this.root = root;
  }

  /** The overview page of a run reporting into {@code root}. */
  public static Path page(Path root) {
    return root.resolve("index.html");
  }

  /** The sweep ended: its row, and the page rewritten with it. */
  synchronized void add(SweepSummary summary, String folder) {
    rows.add(RunOverview.Row.of(summary, folder));
    Path page = page(root);
    try {
      Files.createDirectories(root);
      Files.writeString(page, RunOverview.html(rows), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + page
          + "; check that the folder is writable, or set llmbench.report.dir to one that is", e);
    }
  }

  /** Ends the run with its sweeps' verdicts in a few lines and where the overview is, once; nothing when no sweep ran. */
  @Override
  public synchronized void close() {
    if (closed || rows.isEmpty()) return;
    closed = true;
    System.out.print("\n" + RunOverview.console(rows, page(root)));
    System.out.flush();
  }
}
