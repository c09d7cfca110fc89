package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.workload.BadInputException;
import dev.llmbench.internal.workload.LoadedDataset;
import dev.llmbench.internal.workload.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Chooses the rows a sweep sends: the first {@code limit} rows of the file, read no further, or a seeded
 * uniform sample of {@code limit} rows of the whole file (reservoir sampling, so memory holds the sample
 * only) sent in a seeded random order, as {@code vllm bench serve} shuffles ShareGPT. The same file, limit
 * and seed always give the same rows in the same order.
 */
@API(status = INTERNAL)
public final class DatasetLoader {

  private DatasetLoader() {}

  /**
   * The rows of {@code file} as {@code reader} reads them, checked whole.
   *
   * @param reader the file's format
   * @param file   the file
   * @param limit  rows to keep, 0 for every row
   * @param random a seeded sample instead of the first rows
   * @param seed   the sample's seed
   * @return the rows kept, with what the file held
   * @throws BadInputException        when the file is not of the reader's format, or has no row to send
   * @throws IllegalArgumentException when the file cannot be read
   */
  public static LoadedDataset load(DatasetReader reader, Path file, int limit, boolean random, long seed) {
    if (limit < 0) throw new IllegalArgumentException("the row limit must be 0 (every row) or positive, was " + limit);
    if (!Files.isRegularFile(file)) {
      throw new BadInputException(file.toAbsolutePath(), 0, "", "no such file", "a path relative to "
          + Path.of("").toAbsolutePath() + " or an absolute one");
    }
    List<Row> kept = new ArrayList<>();
    int[] seen = {0};
    SplittableRandom draws = new SplittableRandom(seed);
    try {
      reader.read(file, row -> {
        seen[0]++;
        if (!random) {
          kept.add(row);
          return limit == 0 || kept.size() < limit;
        }
        // Algorithm R: after n rows, each is in the reservoir with probability limit / n.
        if (limit == 0 || kept.size() < limit) {
          kept.add(row);
        } else {
          int j = draws.nextInt(seen[0]);
          if (j < limit) kept.set(j, row);
        }
        return true;
      });
    } catch (NoSuchFileException e) {
      throw new BadInputException(file, 0, "", "no such file", "an existing file");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read dataset " + file.toAbsolutePath(), e);
    }
    int skipped = reader instanceof ShareGptReader s ? s.skipped() : 0;
    int read = seen[0] + skipped;
    if (kept.isEmpty()) {
      throw new BadInputException(file, 0, "", read == 0 ? "holds no rows" : "all " + read + " rows were skipped ("
          + ((ShareGptReader) reader).skippedWhy() + ")", read == 0 ? "at least one row like " + reader.rowShape()
          : "rows vLLM would keep, or widen the @Dataset length bounds");
    }
    String sampling;
    if (random) {
      Collections.shuffle(kept, new Random(seed));
      sampling = "random " + kept.size() + " of " + seen[0] + ", seed " + seed;
    } else {
      sampling = limit == 0 ? "all " + kept.size() : "first " + kept.size();
    }
    if (skipped > 0) sampling += "; skipped " + ((ShareGptReader) reader).skippedWhy();
    int modelFirst = reader instanceof ShareGptReader s ? s.modelFirst() : 0;
    List<String> warnings = modelFirst == 0 ? List.of() : List.of(modelFirst + " of the " + read + " conversations read from "
        + file.getFileName() + " began with the model's turn: it was not sent, each such row's prompt is its first human turn");
    return new LoadedDataset(file, reader.format(), kept, read, skipped, sampling, warnings);
  }
}
