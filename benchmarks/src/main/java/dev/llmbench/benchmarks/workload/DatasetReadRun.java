package dev.llmbench.benchmarks.workload;

import dev.llmbench.datasets.DatasetLoader;
import dev.llmbench.internal.workload.LoadedDataset;
import dev.llmbench.datasets.ShareGptReader;
import dev.llmbench.internal.workload.Row;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How fast the ShareGPT reader streams a large file and how little of it it keeps: writes a ShareGPT-shaped
 * file of N conversations (prompts and replies of a few hundred characters, generated here), then reads the
 * first 1,000 rows, and a seeded random sample of 1,000 of all rows, and prints rows/s, MB/s and the heap
 * after a full GC. Run it with a heap smaller than the file to see it is never loaded whole:
 *
 * <pre>
 * java -Xmx64m -cp benchmarks/target/benchmarks.jar dev.llmbench.internal.workload.DatasetReadRun [conversations]
 * </pre>
 */
public final class DatasetReadRun {

  private DatasetReadRun() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 400_000;
    Path dir = Files.createTempDirectory("llmbench-dataset-read");
    Path file = dir.resolve("sharegpt-generated.json");
    try {
      write(file, n);
      double mb = Files.size(file) / 1e6;
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      System.out.printf(Locale.ROOT, "file: %,d conversations, %.1f MB; max heap %.0f MB; %d cores; load average %.1f%n", n, mb,
          Runtime.getRuntime().maxMemory() / 1e6, Runtime.getRuntime().availableProcessors(),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      for (int round = 0; round < 3; round++) {
        long t0 = System.nanoTime();
        LoadedDataset head = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 1000, false, 42);
        long t1 = System.nanoTime();
        LoadedDataset sample = DatasetLoader.load(new ShareGptReader(ShareGptReader.Filter.VLLM), file, 1000, true, 42);
        long t2 = System.nanoTime();
        System.gc();
        long heap = memory.getHeapMemoryUsage().getUsed();
        double whole = (t2 - t1) / 1e9;
        System.out.printf(Locale.ROOT, "round %d: first 1,000 rows in %.1f ms (%d read); random 1,000 of %,d rows in %.2f s: "
            + "%,.0f rows/s, %.0f MB/s; heap after GC with the sample held %.1f MB (rows %d..%d)%n", round + 1,
            (t1 - t0) / 1e6, head.read(), sample.read(), whole, sample.read() / whole, mb / whole, heap / 1e6,
            sample.rows().stream().mapToInt(Row::number).min().orElse(0), sample.rows().stream().mapToInt(Row::number).max().orElse(0));
      }
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }

  /** Conversations of 2 to 4 turns with 100 to 900 characters of text each, from a fixed seed. */
  private static void write(Path file, int n) throws IOException {
    String[] words = ("the of and to in is that for it as with was on be by this are or at from have an not which but "
        + "server model token latency cache batch queue prompt answer request stream memory kernel decode").split(" ");
    java.util.SplittableRandom r = new java.util.SplittableRandom(1);
    try (BufferedWriter out = Files.newBufferedWriter(file)) {
      out.write("[\n");
      for (int i = 0; i < n; i++) {
        out.write(i == 0 ? "" : ",\n");
        out.write("{\"id\": \"c" + i + "\", \"conversations\": [");
        int turns = 2 + r.nextInt(3);
        for (int t = 0; t < turns; t++) {
          StringBuilder text = new StringBuilder();
          int chars = 100 + r.nextInt(800);
          while (text.length() < chars) text.append(words[r.nextInt(words.length)]).append(' ');
          out.write((t == 0 ? "" : ", ") + "{\"from\": \"" + (t % 2 == 0 ? "human" : "gpt") + "\", \"value\": \"" + text + "\"}");
        }
        out.write("]}");
      }
      out.write("\n]\n");
    }
  }
}
