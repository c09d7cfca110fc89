package dev.llmbench.benchmarks.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.internal.client.NettyStreamTransport;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.StreamFailure;
import dev.llmbench.internal.client.StreamRequest;
import dev.llmbench.internal.client.StreamTransport;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.client.Timeouts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client's own ceiling: streams from a server that costs nothing (fast-sse), closed loop at a
 * concurrency, and prints what the client spent. Run by scripts/client-ceiling.sh.
 *
 * <ul>
 *   <li>{@code throughput}: R requests, C in flight. Process CPU time over the timed run (all threads:
 *       parsing, selector, GC, JIT) divided by SSE events; events/s; TTFT from send to first token;
 *       how many streams were open (status line in, not yet finished) at the same moment; threads.
 *       With {@code --retain}, the heap still held by all R traces after a full GC.</li>
 *   <li>{@code inflight}: C streams held open against a throttled URL; heap after a full GC, resident
 *       memory and threads, each minus the same figure with nothing in flight, per stream.</li>
 * </ul>
 */
public final class CeilingRun {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private final Map<String, String> args;
  private final URI url;
  private final int concurrency;
  private final int requests;
  private final String transportName;

  private CeilingRun(Map<String, String> args) {
    this.args = args;
    String base = args.getOrDefault("url", "http://127.0.0.1:18090/c1000").replaceAll("/+$", "");
    this.url = URI.create(base.endsWith("/chat/completions") ? base : base + "/v1/chat/completions");
    this.concurrency = Integer.parseInt(args.getOrDefault("concurrency", "1"));
    this.requests = Integer.parseInt(args.getOrDefault("requests", String.valueOf(Math.max(20, 2 * concurrency))));
    this.transportName = args.getOrDefault("transport", "jdk");
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      String name = argv[i].substring(2);
      args.put(name, i + 1 < argv.length && !argv[i + 1].startsWith("--") ? argv[++i] : "true");
    }
    CeilingRun run = new CeilingRun(args);
    Map<String, Object> result = "inflight".equals(args.get("mode")) ? run.inFlight() : run.throughput();
    System.out.println(args.containsKey("json") ? json(result) : text(result));
    System.exit(0);
  }

  private StreamTransport transport() {
    Timeouts timeouts = new Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(60), "idle", Duration.ofMinutes(10), "request");
    return switch (transportName) {
      case "jdk" -> args.containsKey("threads")
          ? new JdkStreamTransport(timeouts, Integer.parseInt(args.get("threads"))) : new JdkStreamTransport(timeouts);
      case "okhttp" -> new OkHttpStreamTransport(timeouts);
      case "netty" -> args.containsKey("threads")
          ? new NettyStreamTransport(timeouts, Integer.parseInt(args.get("threads"))) : new NettyStreamTransport(timeouts);
      default -> throw new IllegalArgumentException("--transport jdk, okhttp or netty, not " + transportName);
    };
  }

  private StreamRequest request(TextCapture capture) {
    byte[] body = ("{\"model\":\"fast-sse\",\"messages\":[{\"role\":\"user\",\"content\":\"Say something.\"}],"
        + "\"max_tokens\":10000,\"stream\":true,\"stream_options\":{\"include_usage\":true}}").getBytes(StandardCharsets.UTF_8);
    return new StreamRequest(url, body, Map.of(), true, capture, System.nanoTime(), 4);
  }

  /** Sends {@code total} requests with {@code c} in flight; every trace, in completion order. */
  private List<RequestTrace> closedLoop(StreamTransport transport, int c, int total, TextCapture capture)
      throws InterruptedException {
    List<RequestTrace> traces = new ArrayList<>(total);
    AtomicInteger issued = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(total);
    Runnable[] next = new Runnable[1];
    next[0] = () -> {
      if (issued.getAndIncrement() >= total) return;
      transport.send(request(capture)).thenAccept(t -> {
        synchronized (traces) {
          traces.add(t);
        }
        done.countDown();
        next[0].run();
      });
    };
    for (int i = 0; i < Math.min(c, total); i++) next[0].run();
    done.await();
    return traces;
  }

  private Map<String, Object> throughput() throws Exception {
    TextCapture capture = TextCapture.EXCERPT;
    Map<String, Object> out = new LinkedHashMap<>();
    try (StreamTransport transport = transport()) {
      warmUp(transport, capture);
      long heapBefore = args.containsKey("retain") ? gcHeapUsed() : 0;
      THREADS.resetPeakThreadCount();
      Map<String, Long> threadCpu0 = threadCpuByGroup();
      long cpu0 = OS.getProcessCpuTime();
      long t0 = System.nanoTime();
      List<RequestTrace> traces = closedLoop(transport, concurrency, requests, capture);
      long wall = System.nanoTime() - t0;
      long cpu = OS.getProcessCpuTime() - cpu0;
      Map<String, Long> threadCpu1 = threadCpuByGroup();
      int peakThreads = THREADS.getPeakThreadCount();
      long events = 0;
      long tokens = 0;
      List<Long> ttfts = new ArrayList<>();
      Map<String, Integer> errors = new TreeMap<>();
      for (RequestTrace t : traces) {
        if (t.succeeded()) {
          events += t.events();
          tokens += t.serverUsage().map(u -> u.completionTokens() == null ? 0 : u.completionTokens()).orElse(0);
          ttfts.add(t.ttftNanos());
        } else {
          errors.merge(t.streamFailure().get().cause() + ": " + t.streamFailure().get().message(), 1, Integer::sum);
        }
      }
      long[] ttft = ttfts.stream().mapToLong(Long::longValue).sorted().toArray();
      long[] toHeaders = traces.stream().filter(RequestTrace::succeeded).mapToLong(t -> t.headersNanos() - t.startNanos())
          .sorted().toArray();
      out.put("client", "llmbench-" + transportName);
      out.put("concurrency", concurrency);
      out.put("requests_ok", traces.size() - errors.values().stream().mapToInt(Integer::intValue).sum());
      out.put("requests_failed", errors.values().stream().mapToInt(Integer::intValue).sum());
      out.put("wall_s", round(wall / 1e9, 3));
      out.put("events", events);
      out.put("events_per_s", round(events / (wall / 1e9), 0));
      out.put("output_tok_per_s", round(tokens / (wall / 1e9), 0));
      out.put("cpu_s", round(cpu / 1e9, 3));
      out.put("cpu_util", round((double) cpu / wall, 3));
      out.put("cpu_us_per_event", events == 0 ? null : round(cpu / 1e3 / events, 3));
      out.put("mean_ttft_ms", ttft.length == 0 ? null : round(Arrays.stream(ttft).average().orElse(0) / 1e6, 3));
      out.put("min_ttft_ms", ttft.length == 0 ? null : round(ttft[0] / 1e6, 3));
      out.put("p50_ttft_ms", ttft.length == 0 ? null : round(percentile(ttft, 50) / 1e6, 3));
      out.put("p99_ttft_ms", ttft.length == 0 ? null : round(percentile(ttft, 99) / 1e6, 3));
      out.put("max_ttft_ms", ttft.length == 0 ? null : round(ttft[ttft.length - 1] / 1e6, 3));
      List<RequestTrace> byStart = traces.stream().filter(RequestTrace::succeeded)
          .sorted(java.util.Comparator.comparingLong(RequestTrace::startNanos)).toList();
      if (byStart.size() > concurrency) {
        long[] first = byStart.subList(0, concurrency).stream().mapToLong(RequestTrace::ttftNanos).sorted().toArray();
        long[] rest = byStart.subList(concurrency, byStart.size()).stream().mapToLong(RequestTrace::ttftNanos).sorted().toArray();
        out.put("p99_ttft_first_wave_ms", round(percentile(first, 99) / 1e6, 3));
        out.put("p50_ttft_later_ms", round(percentile(rest, 50) / 1e6, 3));
        out.put("p99_ttft_later_ms", round(percentile(rest, 99) / 1e6, 3));
      }
      out.put("p50_headers_ms", toHeaders.length == 0 ? null : round(percentile(toHeaders, 50) / 1e6, 3));
      out.put("p99_headers_ms", toHeaders.length == 0 ? null : round(percentile(toHeaders, 99) / 1e6, 3));
      Map<String, Object> split = new LinkedHashMap<>();
      long javaThreads = 0;
      for (Map.Entry<String, Long> e : threadCpu1.entrySet()) {
        long used = e.getValue() - threadCpu0.getOrDefault(e.getKey(), 0L);
        javaThreads += used;
        if (used > 0 && events > 0) split.put(e.getKey(), round(used / 1e3 / events, 3));
      }
      if (events > 0) split.put("jvm (jit, gc, other)", round((cpu - javaThreads) / 1e3 / events, 3));
      out.put("cpu_us_per_event_by_thread", split);
      out.put("max_open_together", maxOverlap(traces));
      out.put("peak_threads", peakThreads);
      if (args.containsKey("retain")) {
        long held = gcHeapUsed() - heapBefore;
        out.put("retained_heap_mb", round(held / 1048576.0, 1));
        out.put("max_heap_mb", MEMORY.getHeapMemoryUsage().getMax() / 1048576);
        out.put("traces_held", traces.size());
      }
      out.put("errors", errors);
    }
    return out;
  }

  /**
   * Runs the load for {@code --warmup-s} seconds (default 3) at the level's concurrency, at most 64, so
   * that the timed run measures compiled code, not the JIT compiling it; then, above 64, one round with
   * all C in flight, as the extension's automatic warm-up does before a level (so the timed run starts
   * with C connections open, as a measured level does).
   */
  private void warmUp(StreamTransport transport, TextCapture capture) throws InterruptedException {
    double seconds = Double.parseDouble(args.getOrDefault("warmup-s", "3"));
    long end = System.nanoTime() + (long) (seconds * 1e9);
    int c = Math.min(concurrency, 64);
    while (System.nanoTime() < end) closedLoop(transport, c, c, capture);
    if (concurrency > c) closedLoop(transport, concurrency, concurrency, capture);
  }

  /** CPU time of live Java threads, summed by name without its trailing number. */
  private static Map<String, Long> threadCpuByGroup() {
    Map<String, Long> byGroup = new TreeMap<>();
    for (long id : THREADS.getAllThreadIds()) {
      java.lang.management.ThreadInfo info = THREADS.getThreadInfo(id);
      long cpu = THREADS.getThreadCpuTime(id);
      if (info == null || cpu < 0) continue;
      byGroup.merge(info.getThreadName().replaceAll("(?:[-#]?\\d+)+$", "").replaceAll("-\\d+-", "-N-"), cpu, Long::sum);
    }
    return byGroup;
  }

  private Map<String, Object> inFlight() throws Exception {
    Map<String, Object> out = new LinkedHashMap<>();
    double settle = Double.parseDouble(args.getOrDefault("settle", "5"));
    try (StreamTransport transport = transport()) {
      URI fast = URI.create(url.toString().replace("/slow/", "/"));
      closedLoop(new UriOverride(transport, fast), Math.min(concurrency, 8), 8, TextCapture.EXCERPT);
      long heap0 = gcHeapUsed();
      long rss0 = rssBytes();
      int threads0 = THREADS.getThreadCount();
      List<CompletableFuture<RequestTrace>> open = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) open.add(transport.send(request(TextCapture.EXCERPT)));
      long deadline = System.nanoTime() + (long) (settle * 1e9);
      while (System.nanoTime() < deadline) Thread.sleep(50);
      int inFlight = transport.inFlight();
      long heap1 = gcHeapUsed();
      long rss1 = rssBytes();
      int threads1 = THREADS.getThreadCount();
      transport.cancelAll();
      int tokens = 0;
      int finishedEarly = 0;
      List<Long> firstTokens = new ArrayList<>();
      for (CompletableFuture<RequestTrace> f : open) {
        RequestTrace t = f.join();
        tokens += t.tokenChunks();
        if (t.tokenChunks() > 0) firstTokens.add(t.ttftNanos());
        if (t.streamFailure().map(x -> x.cause() != StreamFailure.Cause.CANCELLED).orElse(true)) finishedEarly++;
      }
      long[] ttft = firstTokens.stream().mapToLong(Long::longValue).sorted().toArray();
      out.put("client", "llmbench-" + transportName);
      out.put("concurrency", concurrency);
      out.put("in_flight_at_measure", inFlight);
      out.put("not_cancelled", finishedEarly);
      out.put("mean_tokens_per_stream", concurrency == 0 ? 0 : tokens / concurrency);
      // All sent at once on new connections: the first token of each, with every other stream opening too.
      out.put("streams_with_a_token", ttft.length);
      out.put("p50_ttft_ms", ttft.length == 0 ? null : round(percentile(ttft, 50) / 1e6, 3));
      out.put("p99_ttft_ms", ttft.length == 0 ? null : round(percentile(ttft, 99) / 1e6, 3));
      out.put("heap_kb_per_stream", round((heap1 - heap0) / 1024.0 / Math.max(1, inFlight), 1));
      out.put("rss_kb_per_stream", round((rss1 - rss0) / 1024.0 / Math.max(1, inFlight), 1));
      out.put("threads_idle", threads0);
      out.put("threads_in_flight", threads1);
    }
    return out;
  }

  /** Sends to another URI (the warm-up of the in-flight mode goes to the unthrottled body). */
  private record UriOverride(StreamTransport delegate, URI uri) implements StreamTransport {
    @Override
    public CompletableFuture<RequestTrace> send(StreamRequest r) {
      return delegate.send(new StreamRequest(uri, r.body(), r.headers(), r.stream(), r.capture(), r.scheduledNanos(),
          r.promptTokensEstimate()));
    }

    @Override
    public void cancelAll() {
      delegate.cancelAll();
    }

    @Override
    public int inFlight() {
      return delegate.inFlight();
    }

    @Override
    public void close() {
      // The delegate is closed by its owner.
    }
  }

  /** The most streams that had their status line and had not finished, at any one moment. */
  static int maxOverlap(List<RequestTrace> traces) {
    List<long[]> edges = new ArrayList<>();
    for (RequestTrace t : traces) {
      if (t.headersNanos() == 0) continue;
      edges.add(new long[] {t.headersNanos(), 1});
      edges.add(new long[] {Math.max(t.headersNanos(), t.endNanos()), -1});
    }
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int open = 0;
    int max = 0;
    for (long[] e : edges) {
      open += (int) e[1];
      max = Math.max(max, open);
    }
    return max;
  }

  private static long gcHeapUsed() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      MEMORY.gc();
      Thread.sleep(100);
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }

  private static long rssBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
    }
    return 0;
  }

  /** Linear interpolation between closest ranks, as numpy's default. */
  static double percentile(long[] sorted, double p) {
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = (int) Math.ceil(rank);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
  }

  private static double round(double v, int places) {
    double scale = Math.pow(10, places);
    return Math.round(v * scale) / scale;
  }

  private static String text(Map<String, Object> result) {
    StringBuilder s = new StringBuilder();
    result.forEach((k, v) -> s.append(String.format(Locale.ROOT, "%-22s %s%n", k, v)));
    return s.toString().strip();
  }

  private static String json(Map<String, Object> result) throws IOException {
    return new ObjectMapper().writeValueAsString(result);
  }
}
