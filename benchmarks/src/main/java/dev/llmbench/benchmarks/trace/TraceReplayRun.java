package dev.llmbench.benchmarks.trace;

import dev.llmbench.Workload;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.StreamRequest;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.trace.MooncakeTrace;
import dev.llmbench.trace.TraceSource;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * How closely the extension keeps a trace's schedule at a high rate: generates a Mooncake-style trace (seeded),
 * reads and checks it as {@code @Trace} does, and replays it at its timestamps through the same path a
 * {@code @TraceReplay} level takes (TraceSource for rows and schedule, WorkloadPlan for each request, LoadRunner
 * on this thread, OpenAiClient's Netty event loops for the streams) against a server that costs nothing
 * (fast-sse). Prints the schedule lag (send minus due: p50, p99, max) of every request. Run by
 * scripts/trace-replay.sh.
 *
 * <p>{@code --url} (default {@code http://127.0.0.1:18093/c64}), {@code --rows} (10000), {@code --rate} (replayed
 * requests/s, 1000), {@code --trace-rate} (the generated trace's own mean rate, 100: replayed at rate / trace-rate
 * times its speed), {@code --warmup-rows} (3000, replayed first and not counted), {@code --trace} (replay this file
 * instead of generating one), {@code --json}.
 */
public final class TraceReplayRun {

  private TraceReplayRun() {}

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      args.put(argv[i].substring(2), i + 1 < argv.length && !argv[i + 1].startsWith("--") ? argv[++i] : "true");
    }
    String base = args.getOrDefault("url", "http://127.0.0.1:18093/c64").replaceAll("/+$", "");
    int rows = Integer.parseInt(args.getOrDefault("rows", "10000"));
    double rate = Double.parseDouble(args.getOrDefault("rate", "1000"));
    double traceRate = Double.parseDouble(args.getOrDefault("trace-rate", "100"));
    int warmupRows = Integer.parseInt(args.getOrDefault("warmup-rows", "3000"));
    Path file = args.containsKey("trace") ? Path.of(args.get("trace")) : generate(rows, traceRate, 7);

    long readStart = System.nanoTime();
    MooncakeTrace trace = TraceSource.check(file, MooncakeTrace.DEFAULT_BLOCK_SIZE);
    long readNanos = System.nanoTime() - readStart;
    double scale = rate / TraceSource.meanRate(trace, 1);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("trace", file.toString());
    out.put("rows", trace.rows());
    out.put("trace_span_s", round(trace.spanMs() / 1000, 3));
    out.put("check_ms", round(readNanos / 1e6, 1));
    out.put("time_scale", round(scale, 3));
    out.put("load_average_start", loadAverage());

    try (OpenAiClient client = new OpenAiClient(URI.create(base), null, Duration.ofSeconds(60), Duration.ofSeconds(30))) {
      if (warmupRows > 0) replay(client, trace, scale, Math.min(warmupRows, trace.rows()), new long[trace.rows()], new long[trace.rows()]);
      Probe probe = new Probe();
      Pauses pauses = new Pauses();
      long[] sendCost = new long[trace.rows()];
      long[] prepareCost = new long[trace.rows()];
      long sendingThread = Thread.currentThread().getId();
      long cpu0 = processCpu();
      long alloc0 = allocated();
      long sendingAlloc0 = threads().getThreadAllocatedBytes(sendingThread);
      long t0 = System.nanoTime();
      List<RequestTrace> traces = replay(client, trace, scale, trace.rows(), sendCost, prepareCost);
      long wall = System.nanoTime() - t0;
      long cpu = processCpu() - cpu0;
      long sendingAlloc = threads().getThreadAllocatedBytes(sendingThread) - sendingAlloc0;
      long alloc = allocated() - alloc0;
      long[] wakeups = probe.stop();
      long[] gc = pauses.stop();
      Arrays.sort(sendCost);
      Arrays.sort(prepareCost);
      long[] lag = traces.stream().mapToLong(t -> t.startNanos() - t.scheduledNanos()).sorted().toArray();
      long firstDue = traces.stream().mapToLong(RequestTrace::scheduledNanos).min().orElse(0);
      long lastDue = traces.stream().mapToLong(RequestTrace::scheduledNanos).max().orElse(0);
      Map<String, Integer> errors = new TreeMap<>();
      traces.stream().filter(t -> !t.succeeded()).forEach(t -> errors.merge(t.failure().kind() + ": " + t.failure().message(), 1,
          Integer::sum));
      out.put("requests", traces.size());
      out.put("failed", traces.stream().filter(t -> !t.succeeded()).count());
      out.put("offered_rate", round((traces.size() - 1) / ((lastDue - firstDue) / 1e9), 1));
      out.put("wall_s", round(wall / 1e9, 3));
      out.put("cpu_util", round((double) cpu / wall, 3));
      out.put("lag_p50_ms", round(percentile(lag, 50) / 1e6, 3));
      out.put("lag_p90_ms", round(percentile(lag, 90) / 1e6, 3));
      out.put("lag_p99_ms", round(percentile(lag, 99) / 1e6, 3));
      out.put("lag_p999_ms", round(percentile(lag, 99.9) / 1e6, 3));
      out.put("lag_max_ms", round(lag[lag.length - 1] / 1e6, 3));
      out.put("late_over_2ms", Arrays.stream(lag).filter(l -> l > 2_000_000).count());
      // What the sending thread itself spent per request (prompt, JSON body, hand-over), and how late the machine
      // woke a thread that asked to sleep 1 ms while the run went on: lag beyond both is the scheduler's.
      out.put("send_cost_p50_us", round(percentile(sendCost, 50) / 1e3, 1));
      out.put("send_cost_p99_us", round(percentile(sendCost, 99) / 1e3, 1));
      out.put("prepare_cost_p50_us", round(percentile(prepareCost, 50) / 1e3, 1));
      out.put("prepare_cost_p99_us", round(percentile(prepareCost, 99) / 1e3, 1));
      // Heap allocated per request over the timed run (the JVM's per-thread counters, as JMH's -prof gc reads them):
      // by the sending thread (prompts, bodies, the hand-over), and by every thread (event loops' reading too).
      out.put("alloc_sending_kb_per_request", round(sendingAlloc / 1024.0 / traces.size(), 2));
      out.put("alloc_all_kb_per_request", round(alloc / 1024.0 / traces.size(), 2));
      out.put("wakeup_p50_ms", round(percentile(wakeups, 50) / 1e6, 3));
      out.put("wakeup_p99_ms", round(percentile(wakeups, 99) / 1e6, 3));
      out.put("wakeup_max_ms", round(wakeups[wakeups.length - 1] / 1e6, 3));
      // The collector's pauses during the timed run (each stops the sending thread too): how many, their sum, the longest.
      out.put("gc_pauses", gc.length);
      out.put("gc_pause_total_ms", round(Arrays.stream(gc).sum() / 1e6, 1));
      out.put("gc_pause_max_ms", round(gc.length == 0 ? 0 : gc[gc.length - 1] / 1e6, 1));
      out.put("server_closes_after_each_response", client.serverClosesAfterEachResponse());
      out.put("load_average_end", loadAverage());
      out.put("errors", errors);
    }
    if (args.containsKey("json")) {
      StringBuilder j = new StringBuilder("{");
      out.forEach((k, v) -> j.append(j.length() > 1 ? ", " : "").append('"').append(k).append("\": ")
          .append(v instanceof String || v instanceof Map ? "\"" + v.toString().replace("\"", "'") + "\"" : v));
      System.out.println(j.append('}'));
    } else {
      out.forEach((k, v) -> System.out.println(k + ": " + v));
    }
    System.exit(0);
  }

  /** The trace's first {@code count} rows at its timestamps over {@code scale}, as a @TraceReplay level sends them. */
  static List<RequestTrace> replay(OpenAiClient client, MooncakeTrace trace, double scale, int count, long[] sendCost,
      long[] prepareCost) {
    PromptSource source = TraceSource.timed(trace, scale);
    WorkloadPlan plan = new WorkloadPlan(trace.maxOutput(), 0, true, null, source, Workload.PrefixCache.AVOID);
    long salt = new SplittableRandom().nextLong();
    // As LevelRunner's sender: each request made ahead of its due time (prompt, body bytes), handed over when due.
    LoadRunner.Sender sender = new LoadRunner.Sender() {
      @Override
      public CompletableFuture<RequestTrace> send(int index, long scheduled) {
        return prepare(index).send(scheduled);
      }

      @Override
      public LoadRunner.Prepared prepare(int index) {
        long start = System.nanoTime();
        StreamRequest ready = client.prepare(ApiStyle.CHAT, "fast-sse", plan.request(index, plan.maxTokens(), salt),
            TextCapture.EXCERPT, Map.of());
        prepareCost[index] = System.nanoTime() - start;
        return new LoadRunner.Prepared() {
          @Override
          public CompletableFuture<RequestTrace> send(long scheduled) {
            long start = System.nanoTime();
            CompletableFuture<RequestTrace> f = client.sendAsync(ready, scheduled);
            sendCost[index] = System.nanoTime() - start;
            return f;
          }

          @Override
          public long bytes() {
            return ready.body().length;
          }
        };
      }
    };
    LoadRunner runner = new LoadRunner(sender, client::cancelAll, Duration.ofSeconds(30), LoadRunner.Observer.NONE);
    LoadShape load = new LoadShape.OpenLoop(Rate.requestsPerSecond(TraceSource.meanRate(trace, scale)), 1,
        java.util.OptionalInt.empty());
    return runner.run(load, Budget.requests(count), 0, source.arrivals().orElseThrow()).traces();
  }

  /**
   * A Mooncake-like trace: Poisson arrivals at {@code rate} per second with whole-millisecond timestamps (as
   * Mooncake's own), prompts of 1 to 4 blocks of 512 tokens whose first blocks come from 50 shared prefixes
   * (a system prompt, a document), outputs of 16 to 256 tokens.
   */
  static Path generate(int rows, double rate, long seed) throws IOException {
    Path file = Files.createTempFile("trace-replay-", ".jsonl");
    SplittableRandom random = new SplittableRandom(seed);
    double t = 0;
    long nextId = 1000;
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < rows; i++) {
        t += -Math.log(1 - random.nextDouble()) / rate * 1000;
        int blocks = 1 + random.nextInt(4);
        int input = (blocks - 1) * 512 + 1 + random.nextInt(512);
        StringBuilder ids = new StringBuilder();
        for (int b = 0; b < blocks; b++) {
          if (b > 0) ids.append(", ");
          ids.append(b == 0 ? random.nextInt(50) : nextId++);
        }
        w.write(String.format(Locale.ROOT, "{\"timestamp\": %d, \"input_length\": %d, \"output_length\": %d, \"hash_ids\": [%s]}%n",
            (long) t, input, 16 + random.nextInt(241), ids));
      }
    }
    file.toFile().deleteOnExit();
    return file;
  }

  /** Every collection's duration while it listens, from the collectors' notifications (G1's young and mixed ones pause). */
  private static final class Pauses {
    private final java.util.List<Long> nanos = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    private final java.util.List<Runnable> unsubscribe = new java.util.ArrayList<>();

    Pauses() {
      for (var bean : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (!(bean instanceof javax.management.NotificationEmitter emitter)) continue;
        javax.management.NotificationListener l = (n, h) -> {
          if (!n.getType().equals(com.sun.management.GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) return;
          var info = com.sun.management.GarbageCollectionNotificationInfo.from((javax.management.openmbean.CompositeData) n.getUserData());
          // Concurrent cycles (G1's concurrent mark, ZGC's) do not stop the application: only pauses count.
          if (info.getGcAction().contains("end of minor") || info.getGcAction().contains("end of major")
              || info.getGcName().contains("Pauses")) {
            nanos.add(info.getGcInfo().getDuration() * 1_000_000L);
          }
        };
        emitter.addNotificationListener(l, null, null);
        unsubscribe.add(() -> {
          try {
            emitter.removeNotificationListener(l);
          } catch (javax.management.ListenerNotFoundException ignored) {
            // already gone
          }
        });
      }
    }

    long[] stop() {
      unsubscribe.forEach(Runnable::run);
      long[] got;
      synchronized (nanos) {
        got = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      }
      return got;
    }
  }

  /** A thread that asks to wake every 1 ms and records how late it ran, as ClientMonitor's probe does. */
  private static final class Probe {
    private final long[] late = new long[200_000];
    private volatile boolean stopped;
    private int n;
    private final Thread thread = new Thread(this::run, "wake-up-probe");

    Probe() {
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      while (!stopped && n < late.length) {
        long due = System.nanoTime() + 1_000_000;
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        late[n++] = Math.max(0, System.nanoTime() - due);
      }
    }

    long[] stop() throws InterruptedException {
      stopped = true;
      thread.join();
      long[] got = Arrays.copyOf(late, Math.max(1, n));
      Arrays.sort(got);
      return got;
    }
  }

  private static double percentile(long[] sorted, double p) {
    // numpy's default (linear): rank p/100 x (n - 1)
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
  }

  private static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip().split(" ", 4)[0] + " "
          + Files.readString(Path.of("/proc/loadavg")).strip().split(" ", 4)[1];
    } catch (IOException e) {
      return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private static com.sun.management.ThreadMXBean threads() {
    return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  }

  /** Bytes allocated so far by the threads alive now (the event loops and the sending thread live through the run). */
  private static long allocated() {
    long[] all = threads().getThreadAllocatedBytes(threads().getAllThreadIds());
    return Arrays.stream(all).filter(b -> b > 0).sum();
  }

  private static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
