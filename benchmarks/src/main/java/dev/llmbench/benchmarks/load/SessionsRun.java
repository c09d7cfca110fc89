package dev.llmbench.benchmarks.load;

import dev.llmbench.Workload;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.Conversations;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.SessionTurns;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.workload.LengthDistribution;
import dev.llmbench.result.LoadShape;
import dev.llmbench.sessions.SessionWorkload;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How much heap a session in flight costs: {@code --sessions} (10,000) synthetic sessions of {@code --turns} (4)
 * turns, all under way at once (a closed loop of that many), through the path a {@code @Sessions} level takes
 * ({@link SessionWorkload} for the turns, {@link LoadRunner} on this thread, the client's Netty event loops for
 * the streams, whole replies read into each history), against a static server that drips its replies
 * (fast-sse's {@code /drip/}: the first 2 KB at once, then 1 KB/s). Once every session has had its reply to turn
 * {@code k}, while they think before turn {@code k + 1} or send it, the heap after a full GC minus the heap before
 * the run, divided by the sessions under way, is the cost of one: its history, its request or think-time entry,
 * its stream and the excerpts the level keeps. Run by scripts/sessions-heap.sh.
 *
 * <p>{@code --url} (default {@code http://127.0.0.1:18094/drip/c64}), {@code --sessions}, {@code --turns},
 * {@code --input} (words of each user turn, 64), {@code --think-ms} (a length distribution, {@code
 * uniform(3000,6000)}), {@code --max-tokens} (64).
 */
public final class SessionsRun {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private SessionsRun() {}

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      args.put(argv[i].substring(2), i + 1 < argv.length && !argv[i + 1].startsWith("--") ? argv[++i] : "true");
    }
    String base = args.getOrDefault("url", "http://127.0.0.1:18094/drip/c64").replaceAll("/+$", "");
    int sessions = Integer.parseInt(args.getOrDefault("sessions", "10000"));
    int turns = Integer.parseInt(args.getOrDefault("turns", "4"));
    int input = Integer.parseInt(args.getOrDefault("input", "64"));
    int maxTokens = Integer.parseInt(args.getOrDefault("max-tokens", "64"));
    String think = args.getOrDefault("think-ms", "uniform(3000,6000)");
    SessionWorkload workload = SessionWorkload.synthetic(LengthDistribution.parse(Integer.toString(turns)),
        LengthDistribution.parse(Integer.toString(input)), LengthDistribution.parse(think), maxTokens, 7, "X-Session-ID");
    WorkloadPlan plan = new WorkloadPlan(maxTokens, 0, false, null, PromptSource.rows(workload.name(), workload),
        Workload.PrefixCache.AVOID);

    try (OpenAiClient client = new OpenAiClient(URI.create(base), null, Duration.ofSeconds(120), Duration.ofSeconds(60))) {
      client.sendAsync(ApiStyle.CHAT, "m", plan.request(0, maxTokens, 1), System.nanoTime(), TextCapture.FULL).join();
      long before = gcHeapUsed();
      long[] answered = new long[turns]; // answers to turn k (failures too), over all sessions
      long[] failedAt = new long[turns]; // sessions a failure ended at turn k: they send no later turn
      AtomicInteger ended = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      Map<String, Integer> failures = new java.util.concurrent.ConcurrentHashMap<>();
      CountDownLatch[] turnDone = new CountDownLatch[turns];
      for (int k = 0; k < turns; k++) turnDone[k] = new CountDownLatch(1);
      LoadRunner.Observer observer = new LoadRunner.Observer() { // called on the runner's thread, one call at a time
        @Override
        public void completed(RequestTrace t) {
          if (!t.succeeded()) {
            failed.incrementAndGet();
            failedAt[t.turn()]++;
            String why = t.failure().message();
            failures.merge(why.length() > 90 ? why.substring(0, 90) : why, 1, Integer::sum);
          }
          if (!t.succeeded() || t.turn() == turns - 1) ended.incrementAndGet();
          answered[t.turn()]++;
          long gone = 0;
          for (int k = 0; k < turns; k++) { // turn k is over once every session that reached it has its answer
            if (answered[k] + gone == sessions) turnDone[k].countDown();
            gone += failedAt[k];
          }
        }
      };
      LoadRunner runner = new LoadRunner(client::cancelAll, Duration.ofSeconds(30), observer);
      Conversations conversations = SessionTurns.of(workload, plan, 11, 7, (request, headers, due) -> client.sendAsync(
          ApiStyle.CHAT, "m", request, due, TextCapture.FULL, headers));
      long start = System.nanoTime();
      LoadRunner.Outcome[] outcome = new LoadRunner.Outcome[1];
      Thread run = new Thread(() -> outcome[0] = runner.run(new LoadShape.ClosedLoop(sessions),
          Budget.requests(workload.turnsOfFirst(sessions)), 7, conversations), "sessions-run");
      run.start();
      System.out.printf("# %d sessions of %d turns (%d-word user turns, think %s ms, max_tokens %d) against %s; "
          + "heap before %.1f MB, max %d MB; %d cores%n", sessions, turns, input, think, maxTokens, base, before / 1048576.0,
          MEMORY.getHeapMemoryUsage().getMax() / 1048576, Runtime.getRuntime().availableProcessors());
      for (int k = 0; k < turns - 1; k++) {
        turnDone[k].await();
        int underWay = sessions - ended.get();
        long heap = gcHeapUsed();
        System.out.printf("after every reply to turn %d (%.1f s): %d sessions under way, %d failed; heap %.1f MB, "
            + "%.1f KB a session; threads %d%n", k + 1, (System.nanoTime() - start) / 1e9, underWay, failed.get(),
            heap / 1048576.0, (heap - before) / 1024.0 / Math.max(1, underWay), Thread.activeCount());
      }
      run.join();
      failures.forEach((why, n) -> System.out.printf("  %d failed: %s%n", n, why));
      System.out.printf("done in %.1f s: %d requests, %d failed%n", (System.nanoTime() - start) / 1e9,
          outcome[0].traces().size(), outcome[0].traces().stream().filter(t -> !t.succeeded()).count());
    }
  }

  private static long gcHeapUsed() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      MEMORY.gc();
      Thread.sleep(100);
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }
}
