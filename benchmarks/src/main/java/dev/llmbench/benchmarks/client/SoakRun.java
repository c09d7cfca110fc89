package dev.llmbench.benchmarks.client;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.internal.client.ConnectionOptions;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.client.Timeouts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A soak: closed-loop load for a long time, in one JVM, printing every interval the heap after a full GC,
 * the live threads and the open file descriptors, and failing (exit 1) when any of them grew beyond its
 * tolerance, or any request failed. Run by scripts/soak.sh.
 *
 * <p>The load goes through the extension's own client ({@link OpenAiClient}: Netty streams, the byte parser)
 * to the embedded engine in the same JVM (default), so a leak in either shows; or, with {@code --url}, to
 * any OpenAI-compatible server (fast-sse, for the client alone). Besides the one client that carries the
 * load for the whole run (as an endpoint's does for a whole test run), each interval opens a second client,
 * streams one request and GETs {@code /health} with it, and closes it: the per-run resources a suite of many
 * endpoints opens and closes.
 *
 * <p>Growth is judged against the first sample, taken after one interval of load (pools, JIT and caches
 * full by then): the least of the last three samples may exceed it by the tolerance, no more. The least,
 * so that one sample taken while a burst of requests held memory does not fail the run; a leak raises all
 * three.
 */
public final class SoakRun {

  private static final com.sun.management.UnixOperatingSystemMXBean OS_UNIX =
      ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u ? u : null;

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (argv[i].equals("--help")) {
        System.out.println("""
            SoakRun: closed-loop load, heap after GC / threads / open files every interval; exit 1 on growth.
              --duration 30m      how long the load runs (s, m, h)
              --interval 1m       time between samples
              --concurrency 16    requests in flight
              --max-tokens 128    tokens per request (ignore_eos)
              --profile instant   the embedded engine's profile (without --url)
              --url URL           an OpenAI-compatible server instead of the embedded engine
              --heap-tolerance-mb 16  --thread-tolerance 2  --fd-tolerance 4""");
        return;
      }
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      args.put(argv[i].substring(2), i + 1 < argv.length && !argv[i + 1].startsWith("--") ? argv[++i] : "true");
    }
    System.exit(new SoakRun(args).run());
  }

  private final Duration duration;
  private final Duration interval;
  private final int concurrency;
  private final int maxTokens;
  private final String profile;
  private final String url;
  private final long heapTolerance;
  private final int threadTolerance;
  private final int fdTolerance;

  private SoakRun(Map<String, String> args) {
    duration = duration(args.getOrDefault("duration", "30m"));
    interval = duration(args.getOrDefault("interval", "1m"));
    concurrency = Integer.parseInt(args.getOrDefault("concurrency", "16"));
    maxTokens = Integer.parseInt(args.getOrDefault("max-tokens", "128"));
    profile = args.getOrDefault("profile", "instant");
    url = args.get("url");
    heapTolerance = Long.parseLong(args.getOrDefault("heap-tolerance-mb", "16")) << 20;
    threadTolerance = Integer.parseInt(args.getOrDefault("thread-tolerance", "2"));
    fdTolerance = Integer.parseInt(args.getOrDefault("fd-tolerance", "4"));
    if (interval.compareTo(duration) > 0) throw new IllegalArgumentException("--interval must not exceed --duration");
  }

  private static Duration duration(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    return switch (t.charAt(t.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default -> throw new IllegalArgumentException("a duration such as 90s, 30m or 2h, not " + text);
    };
  }

  /** One interval's figures. */
  record Sample(Duration at, long heapAfterGc, int threads, long fds, long ok, long failed, double requestsPerSecond) {}

  private int run() throws Exception {
    EmbeddedLlmServer server = url != null ? null : EmbeddedLlmServer.start(EmbeddedOptions.builder(
        PerformanceProfile.named(profile).orElseThrow(() -> new IllegalArgumentException("no embedded profile " + profile
            + "; the profiles are " + PerformanceProfile.builtIn().keySet()))).build());
    URI base = server != null ? server.baseUrl() : URI.create(url);
    System.out.printf("# soak %s: %s against %s, C=%d, %d tokens a request, sample every %s; %d cores, load average %s%n",
        Instant.now(), clock(duration), server != null ? "the embedded engine (" + profile + ")" : base, concurrency, maxTokens,
        clock(interval), Runtime.getRuntime().availableProcessors(), loadAverage());
    System.out.printf("# java %s, max heap %d MB; tolerances: heap +%d MB, threads +%d, open files +%d over the first sample%n",
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20, heapTolerance >> 20, threadTolerance,
        fdTolerance);
    System.out.println("   time | heap after GC | threads | open files | requests ok | failed |  req/s | load avg");
    Timeouts timeouts = Timeouts.of(Duration.ofMinutes(2), Duration.ofSeconds(30));
    OpenAiClient client = new OpenAiClient(ConnectionOptions.plain(base, null, timeouts.connect()), timeouts, 2);
    CompletionRequest request = CompletionRequest.of("Tell me a long story about the sea.").withMaxTokens(maxTokens)
        .withIgnoreEos(true);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong ok = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    Map<String, Long> failures = new TreeMap<>();
    CountDownLatch workers = new CountDownLatch(concurrency);
    for (int i = 0; i < concurrency; i++) {
      // Each worker sends its next request when its last one ends, from the event loop that finished it.
      Runnable[] next = new Runnable[1];
      next[0] = () -> {
        if (stop.get()) {
          workers.countDown();
          return;
        }
        client.sendAsync(ApiStyle.CHAT, model(server), request, System.nanoTime(), TextCapture.EXCERPT).thenAccept(t -> {
          if (t.succeeded()) {
            ok.incrementAndGet();
          } else {
            failed.incrementAndGet();
            synchronized (failures) {
              failures.merge(String.valueOf(t.failure()), 1L, Long::sum);
            }
          }
          next[0].run();
        });
      };
      next[0].run();
    }
    List<Sample> samples = new ArrayList<>();
    long start = System.nanoTime();
    long lastOk = 0;
    long lastAt = start;
    for (long due = start + interval.toNanos(); due - start <= duration.toNanos(); due += interval.toNanos()) {
      long wait = due - System.nanoTime();
      if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      long now = System.nanoTime();
      long doneOk = ok.get();
      double rate = (doneOk - lastOk) * 1e9 / Math.max(1, now - lastAt);
      lastOk = doneOk;
      lastAt = now;
      Sample s = new Sample(Duration.ofNanos(now - start), heapAfterGc(), liveThreads(),
          openFiles(), doneOk, failed.get(), rate);
      samples.add(s);
      System.out.printf("%7s | %10.1f MB | %7d | %10d | %11d | %6d | %6.0f | %s%n", clock(s.at()), s.heapAfterGc() / 1048576.0,
          s.threads(), s.fds(), s.ok(), s.failed(), s.requestsPerSecond(), loadAverage());
      if (samples.size() == 1) firstNames = threadsByName();
      lastNames = threadsByName();
      // After the sample: its threads and sockets have an interval to go before the next one is taken.
      shortLivedClient(base, model(server));
    }
    stop.set(true);
    workers.await();
    client.close();
    if (server != null) server.close();
    return verdict(samples, failures);
  }

  private static String model(EmbeddedLlmServer server) {
    return server == null ? "soak" : server.profile().model();
  }

  /** A client opened, used and closed, as each endpoint of a run opens and closes its own. */
  private static void shortLivedClient(URI base, String model) {
    Timeouts timeouts = Timeouts.of(Duration.ofSeconds(30), Duration.ofSeconds(30));
    try (OpenAiClient c = new OpenAiClient(ConnectionOptions.plain(base, null, timeouts.connect()), timeouts, 1)) {
      c.send(ApiStyle.CHAT, model, CompletionRequest.of("Hi").withMaxTokens(4), TextCapture.NONE);
      c.get("/health");
    } catch (IOException e) {
      System.out.println("# short-lived client: " + e);
    }
  }

  /** Live threads by name, digits dropped ("llmbench-io-3" counts as "llmbench-io-#"): where a thread leak is. */
  private static Map<String, Integer> threadsByName() {
    Map<String, Integer> names = new TreeMap<>();
    for (java.lang.management.ThreadInfo t : ManagementFactory.getThreadMXBean().getThreadInfo(
        ManagementFactory.getThreadMXBean().getAllThreadIds())) {
      if (t != null) names.merge(t.getThreadName().replaceAll("\\d+", "#"), 1, Integer::sum);
    }
    return names;
  }

  private Map<String, Integer> firstNames = Map.of();
  private Map<String, Integer> lastNames = Map.of();

  private int verdict(List<Sample> samples, Map<String, Long> failures) {
    Sample first = samples.get(0);
    List<Sample> last = samples.subList(Math.max(1, samples.size() - 3), samples.size());
    if (last.isEmpty()) last = samples;
    long heap = last.stream().mapToLong(Sample::heapAfterGc).min().orElseThrow();
    int threads = last.stream().mapToInt(Sample::threads).min().orElseThrow();
    long fds = last.stream().mapToLong(Sample::fds).min().orElseThrow();
    List<String> grew = new ArrayList<>();
    if (heap - first.heapAfterGc() > heapTolerance) {
      grew.add(String.format("heap after GC grew %.1f MB (%.1f to %.1f MB), tolerance %d MB",
          (heap - first.heapAfterGc()) / 1048576.0, first.heapAfterGc() / 1048576.0, heap / 1048576.0, heapTolerance >> 20));
    }
    if (threads - first.threads() > threadTolerance) {
      Map<String, Integer> change = new TreeMap<>();
      lastNames.forEach((n, k) -> { if (k - firstNames.getOrDefault(n, 0) != 0) change.put(n, k - firstNames.getOrDefault(n, 0)); });
      firstNames.forEach((n, k) -> { if (!lastNames.containsKey(n)) change.put(n, -k); });
      grew.add("live threads grew by " + (threads - first.threads()) + " (" + first.threads() + " to " + threads
          + "), tolerance " + threadTolerance + "; by name, first to last sample: " + change);
    }
    if (fds - first.fds() > fdTolerance) {
      grew.add("open files grew by " + (fds - first.fds()) + " (" + first.fds() + " to " + fds + "), tolerance " + fdTolerance);
    }
    Sample end = samples.get(samples.size() - 1);
    if (end.failed() > 0) grew.add(end.failed() + " requests failed: " + failures);
    System.out.printf("# %d requests in %s (%.0f/s); against the first sample, the least of the last %d: heap %+.1f MB, "
            + "threads %+d, open files %+d%n", end.ok(), clock(end.at()), end.ok() * 1e9 / end.at().toNanos(), last.size(),
        (heap - first.heapAfterGc()) / 1048576.0, threads - first.threads(), fds - first.fds());
    if (grew.isEmpty()) {
      System.out.println("# PASS: nothing grew beyond its tolerance and no request failed");
      return 0;
    }
    grew.forEach(g -> System.out.println("# FAIL: " + g));
    return 1;
  }

  private static long heapAfterGc() {
    // Two collections: the first may leave objects whose finalisation or reference processing the second frees.
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static int liveThreads() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

  /** Open file descriptors of this process: /proc/self/fd on Linux, else the JVM's own count. */
  private static long openFiles() {
    Path fd = Path.of("/proc/self/fd");
    if (Files.isDirectory(fd)) {
      try (Stream<Path> s = Files.list(fd)) {
        return s.count() - 1; // the listing's own descriptor
      } catch (IOException e) {
        // fall through to the JVM's count
      }
    }
    return OS_UNIX == null ? -1 : OS_UNIX.getOpenFileDescriptorCount();
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private static String clock(Duration d) {
    long s = Math.round(d.toNanos() / 1e9);
    return String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }
}
