package dev.llmbench.engine;

import static dev.llmbench.engine.Wire.CHAT;
import static dev.llmbench.engine.Wire.chatBody;
import static dev.llmbench.engine.Wire.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Figures for the embedded engine's HTTP server, printed, not asserted: surefire does not pick this class up
 * in {@code mvn test}; run it on purpose, on a quiet machine:
 * <pre>
 * mvn -q -o -B -pl engine test -Dtest=EmbeddedServerBench -Dsurefire.failIfNoSpecifiedTests=false
 *     [-Dllmbench.bench.requests=300] [-Dllmbench.bench.streams=1024]
 * </pre>
 */
class EmbeddedServerBench {

  /**
   * TTFT and ITL at C=1 against fixed-20ms, from a raw socket over one kept-alive connection: the step is 20 ms,
   * so everything above it is HTTP and scheduling. A ~40 ms delayed-ACK stall would show as a mode near 60 ms.
   */
  @Test
  void ttftAtConcurrencyOne() throws IOException {
    int n = Integer.getInteger("llmbench.bench.requests", 300);
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.FIXED_20MS, 0, Duration.ZERO);
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.baseUrl().getPort())) {
      socket.setTcpNoDelay(true);
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      byte[] request = post(CHAT, chatBody("hello there", 8, true)).getBytes(StandardCharsets.UTF_8);
      double[] ttft = new double[n];
      List<Double> itl = new ArrayList<>();
      for (int i = -20; i < n; i++) { // 20 warm-up requests
        long sent = System.nanoTime();
        out.write(request);
        out.flush();
        long first = 0;
        long last = 0;
        while (!readLine(in).isEmpty()) {
          // response headers
        }
        for (int size; (size = Integer.parseInt(readLine(in).strip(), 16)) > 0; ) {
          String event = new String(in.readNBytes(size), StandardCharsets.UTF_8);
          readLine(in);
          long now = System.nanoTime();
          if (event.contains("\"content\":\"") && !event.contains("\"content\":\"\"")) {
            if (first == 0) first = now;
            else if (i >= 0) itl.add((now - last) / 1e6);
            last = now;
          }
        }
        readLine(in);
        if (i >= 0) ttft[i] = (first - sent) / 1e6;
      }
      System.out.println("[bench] C=1, fixed-20ms, " + n + " requests of 8 tokens over one connection");
      print("TTFT", ttft);
      print("ITL", itl.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }

  /**
   * Many streams, each on its own connection, all in flight together; a non-blocking client reads them all
   * on one thread, so the client is not the limit.
   */
  @Test
  void manyConcurrentStreams() throws IOException {
    int streams = Integer.getInteger("llmbench.bench.streams", 1024);
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.FIXED_20MS, 0, Duration.ZERO)) {
      streams(server, Math.min(streams, 64), 20, false); // warms the JIT up, not reported
      streams(server, streams, 100, true);
    }
  }

  private static void streams(EmbeddedLlmServer server, int streams, int tokens, boolean report) throws IOException {
    Runtime rt = Runtime.getRuntime();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<Long, Long> serverCpu = new HashMap<>();
    long processCpuBefore = processCpuNanos();
    try (Selector selector = Selector.open()) {
      InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.baseUrl().getPort());
      byte[] request = post(CHAT, chatBody("stream", tokens, true)).getBytes(StandardCharsets.UTF_8);
      long[] sent = new long[streams];
      long[] firstToken = new long[streams];
      long[] done = new long[streams];
      StringBuilder[] seen = new StringBuilder[streams];
      List<SocketChannel> open = new ArrayList<>();
      int threadsBefore = Thread.activeCount();
      long start = System.nanoTime();
      for (int i = 0; i < streams; i++) {
        SocketChannel channel = SocketChannel.open(address);
        channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
        sent[i] = System.nanoTime();
        channel.write(ByteBuffer.wrap(request));
        channel.configureBlocking(false);
        channel.register(selector, SelectionKey.OP_READ, i);
        seen[i] = new StringBuilder();
      }
      long connected = System.nanoTime();
      int finished = 0;
      int peakRunning = 0;
      int peakOpen = 0;
      int peakThreads = 0;
      long peakHeap = 0;
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (finished < streams && System.nanoTime() < deadline) {
        selector.select(100);
        long now = System.nanoTime();
        for (SelectionKey key : selector.selectedKeys()) {
          int i = (Integer) key.attachment();
          SocketChannel channel = (SocketChannel) key.channel();
          buffer.clear();
          int read = channel.read(buffer);
          if (read > 0) {
            seen[i].append(new String(buffer.array(), 0, read, StandardCharsets.ISO_8859_1));
            if (firstToken[i] == 0 && seen[i].indexOf("\"content\":\" ") >= 0) firstToken[i] = now;
            if (done[i] == 0 && seen[i].indexOf("data: [DONE]") >= 0) {
              done[i] = now;
              finished++;
              key.cancel(); // kept open: its server thread lives on, so its CPU time can still be read
              open.add(channel);
            } else if (seen[i].length() > 4096) {
              seen[i].delete(0, seen[i].length() - 64); // keep only the tail: markers may straddle reads
            }
          } else if (read < 0) {
            key.cancel();
            channel.close();
          }
        }
        selector.selectedKeys().clear();
        peakRunning = Math.max(peakRunning, server.running());
        peakOpen = Math.max(peakOpen, server.openConnections());
        peakThreads = Math.max(peakThreads, Thread.activeCount());
        peakHeap = Math.max(peakHeap, rt.totalMemory() - rt.freeMemory());
      }
      sampleServerCpu(threads, serverCpu);
      long processCpu = processCpuNanos() - processCpuBefore;
      for (SocketChannel channel : open) channel.close();
      long end = System.nanoTime();
      double[] ttft = new double[streams];
      double[] wall = new double[streams];
      for (int i = 0; i < streams; i++) {
        ttft[i] = firstToken[i] == 0 ? Double.NaN : (firstToken[i] - sent[i]) / 1e6;
        wall[i] = done[i] == 0 ? Double.NaN : (done[i] - sent[i]) / 1e6;
      }
      assertThat(finished).as("streams completed").isEqualTo(streams);
      if (!report) return;
      long serverNanos = sum(serverCpu, false);
      long serverUser = sum(serverCpu, true);
      long events = (long) streams * (tokens + 4);
      System.out.printf(Locale.ROOT, "[bench] %d streams of %d tokens on fixed-20ms (one connection each): %d completed,"
          + " peak in flight %d, peak open connections %d, connecting took %.0f ms, all done after %.2f s%n",
          streams, tokens, finished, peakRunning, peakOpen, (connected - start) / 1e6, (end - start) / 1e9);
      System.out.printf(Locale.ROOT, "[bench] JVM threads %d before, %d at peak; heap in use at peak %d MB (client and"
          + " server in one JVM)%n", threadsBefore, peakThreads, peakHeap >> 20);
      System.out.printf(Locale.ROOT, "[bench] CPU: server threads (HTTP + scheduler) %.2f s (%.2f s user)"
          + " = %.1f µs per SSE event (%d events); whole process %.2f s%n", serverNanos / 1e9, serverUser / 1e9,
          serverNanos / 1e3 / events, events, processCpu / 1e9);
      print("time to first token", ttft);
      print("whole stream (ideal: " + (tokens + 1) + " steps of 20 ms = " + (tokens + 1) * 20 + " ms)", wall);
    }
  }

  /** CPU time of the server's threads; connections are still open, so every connection thread is alive. */
  private static void sampleServerCpu(ThreadMXBean threads, Map<Long, Long> cpu) {
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null || !info.getThreadName().startsWith("llmbench-embedded")) continue;
      long nanos = threads.getThreadCpuTime(info.getThreadId());
      if (nanos > 0) cpu.put(info.getThreadId(), nanos);
      long user = threads.getThreadUserTime(info.getThreadId());
      if (user > 0) cpu.put(-info.getThreadId() - 1, user); // user time under negative keys
    }
  }

  private static long sum(Map<Long, Long> cpu, boolean user) {
    return cpu.entrySet().stream().filter(e -> (e.getKey() < 0) == user).mapToLong(Map.Entry::getValue).sum();
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static void print(String name, double[] values) {
    double[] x = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
    if (x.length == 0) {
      System.out.println("[bench] " + name + ": no samples");
      return;
    }
    System.out.printf(Locale.ROOT, "[bench] %s (ms): n=%d min=%.2f p50=%.2f p90=%.2f p99=%.2f max=%.2f%n", name,
        x.length, x[0], x[x.length / 2], x[(int) (x.length * 0.9)], x[(int) (x.length * 0.99)], x[x.length - 1]);
    TreeMap<Long, Integer> histogram = new TreeMap<>();
    double bucket = x[x.length - 1] - x[0] > 200 ? 100 : 1;
    for (double v : x) histogram.merge((long) (Math.floor(v / bucket) * bucket), 1, Integer::sum);
    System.out.println("[bench]   histogram (bucket start in ms = count, " + (long) bucket + " ms buckets): " + histogram);
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) != -1 && c != '\n'; ) {
      if (c != '\r') line.append((char) c);
    }
    return line.toString();
  }
}
