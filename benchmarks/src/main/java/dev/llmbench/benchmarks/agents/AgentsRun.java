package dev.llmbench.benchmarks.agents;

import dev.llmbench.Workload;
import dev.llmbench.agents.AgentTrace;
import dev.llmbench.agents.AgentsRegistration;
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
import dev.llmbench.result.LoadShape;
import java.io.BufferedWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Agents in flight, through the path an {@code @AgentTrace} level takes: a generated agent trace (LLMBench's format:
 * {@code --agents} sessions of {@code --turns} turns, a 2,000-token system prompt, tool results of {@code --input}
 * tokens, a tool gap after every turn drawn from {@code --tool-ms lo,hi}, and every {@code --fan-out-every}th agent
 * fanning out two sub-agents of three turns after its turn 1) read and checked as {@code @AgentTrace} reads it, run as a
 * closed loop of every agent at once ({@link SessionTurns} for the turns, {@link LoadRunner} on one thread, the
 * client's event loops for the streams, whole replies read into each history) against a static SSE server (fast-sse).
 * Run by scripts/agents-bench.sh, in two modes:
 *
 * <ul>
 *   <li>{@code --mode heap}: every {@code --every} seconds, the heap after a full GC minus the heap before the trace
 *       was read, divided by the agents under way (most of them in a tool gap: the replies come in a millisecond, the
 *       gaps last seconds): the cost of one agent in flight, its part of the trace, its ledger, its history, its
 *       pending turn and the traces the level keeps. Goal (issue #32): at most 100 KB.
 *   <li>{@code --mode lateness}: how late each turn that follows a gap went out: the transport's send time minus the
 *       due time (the reply's arrival on the runner's thread plus the gap), p50 to max, over the turns after the first
 *       {@code --warmup-s} seconds, and the rate they went at. Goal (issue #32): p99 at most 5 ms at 1,000 turns/s.
 * </ul>
 *
 * <p>{@code --url} (default {@code http://127.0.0.1:18095/c64}), {@code --max-tokens} (64).
 */
public final class AgentsRun {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  /** A sub-agent's turns: below the agents' own, so that a trace's turn index tells an agent's last turn apart. */
  private static final int SUB_TURNS = 3;

  private AgentsRun() {}

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!argv[i].startsWith("--")) throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      args.put(argv[i].substring(2), i + 1 < argv.length && !argv[i + 1].startsWith("--") ? argv[++i] : "true");
    }
    String mode = args.getOrDefault("mode", "heap");
    if (!mode.equals("heap") && !mode.equals("lateness")) throw new IllegalArgumentException("--mode is heap or lateness");
    String base = args.getOrDefault("url", "http://127.0.0.1:18095/c64").replaceAll("/+$", "");
    int agents = Integer.parseInt(args.getOrDefault("agents", "10000"));
    int turns = Integer.parseInt(args.getOrDefault("turns", "8"));
    int input = Integer.parseInt(args.getOrDefault("input", "200"));
    int maxTokens = Integer.parseInt(args.getOrDefault("max-tokens", "64"));
    int fanOutEvery = Integer.parseInt(args.getOrDefault("fan-out-every", "10"));
    String[] gap = args.getOrDefault("tool-ms", "5000,15000").split(",");
    double gapLo = Double.parseDouble(gap[0]);
    double gapHi = Double.parseDouble(gap[gap.length - 1]);
    double every = Double.parseDouble(args.getOrDefault("every", "15"));
    double warmup = Double.parseDouble(args.getOrDefault("warmup-s", "5"));
    if (turns <= SUB_TURNS) throw new IllegalArgumentException("--turns must be above " + SUB_TURNS);

    Path file = Files.createTempFile("agents-bench-", ".jsonl");
    file.toFile().deleteOnExit();
    int requests = write(file, agents, turns, input, gapLo, gapHi, fanOutEvery);
    int subAgents = fanOutEvery > 0 ? 2 * ((agents + fanOutEvery - 1) / fanOutEvery) : 0;
    System.out.printf(Locale.ROOT, "# mode %s: %,d agents of %d turns (tool results of %d tokens, a 2,000-token system "
        + "prompt, tool gaps uniform %s-%s ms), %,d sub-agents of %d turns, %,d requests in all; max_tokens %d, against %s; "
        + "heap max %d MB; %d cores%n", mode, agents, turns, input, fmt(gapLo), fmt(gapHi), subAgents, SUB_TURNS, requests,
        maxTokens, base, MEMORY.getHeapMemoryUsage().getMax() / 1048576, Runtime.getRuntime().availableProcessors());

    try (OpenAiClient client = new OpenAiClient(URI.create(base), null, Duration.ofSeconds(120), Duration.ofSeconds(60))) {
      // One request first: the client's connection and classes, not counted.
      PromptSource warm = AgentsRegistration.prompts(file, AgentTrace.Format.LLMBENCH, 1, maxTokens);
      WorkloadPlan warmPlan = new WorkloadPlan(maxTokens, 0, false, null, warm, Workload.PrefixCache.AVOID);
      client.sendAsync(ApiStyle.CHAT, "m", warmPlan.request(0, maxTokens, 1), System.nanoTime(), TextCapture.FULL).join();
      warm = null;
      warmPlan = null;
      long before = gcHeapUsed();
      long readStart = System.nanoTime();
      PromptSource prompts = AgentsRegistration.prompts(file, AgentTrace.Format.LLMBENCH, 1, maxTokens);
      long readNanos = System.nanoTime() - readStart;
      long afterRead = gcHeapUsed();
      System.out.printf(Locale.ROOT, "trace read and checked in %.0f ms: %.1f MB of heap, %.1f KB an agent%n",
          readNanos / 1e6, (afterRead - before) / 1048576.0, (afterRead - before) / 1024.0 / agents);
      WorkloadPlan plan = new WorkloadPlan(maxTokens, 0, false, null, prompts, Workload.PrefixCache.AVOID);

      AtomicInteger ended = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      AtomicInteger inFlight = new AtomicInteger();
      Map<String, Integer> failures = new java.util.concurrent.ConcurrentHashMap<>();
      LoadRunner.Observer observer = new LoadRunner.Observer() { // on the runner's thread, one call at a time
        @Override
        public void sending(int index, long scheduledNanos) {
          inFlight.incrementAndGet();
        }

        @Override
        public void completed(RequestTrace t) {
          inFlight.decrementAndGet();
          if (!t.succeeded()) {
            failed.incrementAndGet();
            String why = t.failure().message();
            failures.merge(why.length() > 90 ? why.substring(0, 90) : why, 1, Integer::sum);
          }
          // An agent's last turn (a sub-agent has fewer); a failure ends a sub-agent's or an agent's run alike, so
          // the count of agents under way is an estimate when requests fail (the failures are printed).
          if (t.turn() == turns - 1 || !t.succeeded()) ended.incrementAndGet();
        }
      };
      LoadRunner runner = new LoadRunner(client::cancelAll, Duration.ofSeconds(30), observer);
      Conversations conversations = SessionTurns.of(prompts.sessions().orElseThrow(), plan, 11, 7,
          (request, headers, due) -> client.sendAsync(ApiStyle.CHAT, "m", request, due, TextCapture.FULL, headers));
      String load0 = loadAverage();
      long start = System.nanoTime();
      LoadRunner.Outcome[] outcome = new LoadRunner.Outcome[1];
      Thread run = new Thread(() -> outcome[0] = runner.run(new LoadShape.ClosedLoop(agents), Budget.requests(requests), 7,
          conversations), "agents-run");
      run.start();
      long gcBefore = gcMillis();
      if (mode.equals("heap")) {
        while (true) {
          run.join(Math.round(every * 1000));
          if (!run.isAlive()) break;
          int underWay = agents - ended.get();
          int flying = inFlight.get();
          long heap = gcHeapUsed();
          System.out.printf(Locale.ROOT, "at %5.1f s: %,d agents under way, %,d requests in flight (the rest in tool gaps or "
              + "waiting for sub-agents), %d failed; heap %.1f MB, %.1f KB an agent in flight (%.1f KB without the "
              + "trace's)%n", (System.nanoTime() - start) / 1e9, underWay, flying, failed.get(), heap / 1048576.0,
              (heap - before) / 1024.0 / Math.max(1, underWay), (heap - afterRead) / 1024.0 / Math.max(1, underWay));
        }
      }
      run.join();
      long wall = System.nanoTime() - start;
      List<RequestTrace> traces = outcome[0].traces();
      failures.forEach((why, n) -> System.out.printf("  %d failed: %s%n", n, why));
      System.out.printf(Locale.ROOT, "done in %.1f s: %,d requests (%.0f a second), %d failed; GC %d ms in all; load "
          + "average %s at the start, %s at the end%n", wall / 1e9, traces.size(), traces.size() / (wall / 1e9),
          traces.stream().filter(t -> !t.succeeded()).count(), gcMillis() - gcBefore, load0, loadAverage());
      if (mode.equals("lateness")) lateness(traces, start + Math.round(warmup * 1e9), warmup);
    }
    System.exit(0);
  }

  /** How late the turns that follow a gap went out, after the warm-up: send minus due. */
  private static void lateness(List<RequestTrace> traces, long from, double warmup) {
    long[] lag = traces.stream().filter(t -> t.turn() > 0 && t.scheduledNanos() - from >= 0)
        .mapToLong(t -> t.startNanos() - t.scheduledNanos()).sorted().toArray();
    if (lag.length == 0) {
      System.out.println("no turn after a gap was sent after the warm-up: run more agents or turns");
      return;
    }
    long first = traces.stream().filter(t -> t.scheduledNanos() - from >= 0).mapToLong(RequestTrace::startNanos).min().orElseThrow();
    long last = traces.stream().filter(t -> t.scheduledNanos() - from >= 0).mapToLong(RequestTrace::startNanos).max().orElseThrow();
    long sent = traces.stream().filter(t -> t.scheduledNanos() - from >= 0).count();
    System.out.printf(Locale.ROOT, "after the first %s s: %,d turns sent at %.0f a second, %,d of them after a gap; "
        + "lateness (send minus due) p50 %.3f ms, p90 %.3f, p99 %.3f, p99.9 %.3f, max %.3f; over 5 ms: %d%n", fmt(warmup),
        sent, (sent - 1) / ((last - first) / 1e9), lag.length, ms(lag, 50), ms(lag, 90), ms(lag, 99), ms(lag, 99.9),
        lag[lag.length - 1] / 1e6, Arrays.stream(lag).filter(l -> l > 5_000_000).count());
  }

  /**
   * Writes the agents' trace: each agent's first line opens with the system prompt and the task; its later turns bring
   * the tool's result; every {@code fanOutEvery}th agent spawns two sub-agents after turn 1. {@return its requests}
   */
  static int write(Path file, int agents, int turns, int input, double gapLo, double gapHi, int fanOutEvery)
      throws java.io.IOException {
    SplittableRandom random = new SplittableRandom(7);
    int requests = 0;
    try (BufferedWriter w = Files.newBufferedWriter(file)) {
      for (int a = 0; a < agents; a++) {
        String id = "a" + a;
        for (int t = 0; t < turns; t++) {
          StringBuilder line = new StringBuilder("{\"session\": \"").append(id).append("\", \"turn\": ").append(t);
          if (t == 0) line.append(", \"system_tokens\": 2000, \"text\": \"Task ").append(a).append(": fix the failing build.\"");
          else line.append(", \"role\": \"tool\", \"input_tokens\": ").append(input);
          if (t + 1 < turns) line.append(", \"tool\": \"run\", \"tool_ms\": ").append(fmt(gapLo + random.nextDouble() * (gapHi - gapLo)));
          w.write(line.append("}\n").toString());
          requests++;
          if (t == 1 && fanOutEvery > 0 && a % fanOutEvery == 0) {
            for (int s = 0; s < 2; s++) {
              for (int st = 0; st < SUB_TURNS; st++) {
                StringBuilder sub = new StringBuilder("{\"session\": \"").append(id).append("/sub").append(s)
                    .append("\", \"turn\": ").append(st);
                if (st == 0) sub.append(", \"parent\": \"").append(id).append("\", \"spawn_after\": 1, \"text\": \"Explore part ")
                    .append(s).append(".\"");
                else sub.append(", \"role\": \"tool\", \"input_tokens\": ").append(input);
                if (st + 1 < SUB_TURNS) sub.append(", \"tool\": \"grep\", \"tool_ms\": ").append(fmt(gapLo / 4));
                w.write(sub.append("}\n").toString());
                requests++;
              }
            }
          }
        }
      }
    }
    return requests;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static double ms(long[] sorted, double p) {
    int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
  }

  private static long gcHeapUsed() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      MEMORY.gc();
      Thread.sleep(100);
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }

  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
  }

  private static String loadAverage() {
    try {
      return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
    } catch (java.io.IOException e) {
      return "n/a";
    }
  }
}
