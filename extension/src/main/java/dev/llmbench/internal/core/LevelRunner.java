package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.StreamRequest;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.load.Conversations;
import dev.llmbench.internal.load.SessionTurns;
import dev.llmbench.internal.load.SessionSource;
import dev.llmbench.internal.load.SloAbortBudget;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.server.MetricsScraper;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.ServerMetrics;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/** Runs one level against a ready endpoint: warm-up, measured load, server metrics around it. */
@API(status = INTERNAL)
public final class LevelRunner {

  private static final SecureRandom SALTS = new SecureRandom();

  private LevelRunner() {}

  /**
   * @param level    the level, its sweep, and the sweep's SLO, percentiles and deployment facts (carried into the result)
   * @param progress watches the measured requests (not the warm-up) and says where the level stands
   * @param every    how often a progress line is due while the level measures
   * @param warm     runs after the warm-up, just before the first measured request: a shard of a sharded
   *                 run waits there for its slot, so that all shards measure from the same moment
   * @param recorders what the features record beside the level (the GPUs' telemetry)
   * @param replies  how the features judge each reply (tool calls, JSON answers)
   */
  public static MeasuredLevel run(Endpoint endpoint, EndpointInfo info, LevelContext level, RunningLevel progress,
      Duration every, Runnable warm, List<LevelRecorder> recorders, ReplyJudge replies) {
    SweepRun sweep = level.sweep();
    LevelPlan plan = level.plan();
    ServiceLevels slo = level.slo();
    BenchListener listener = sweep.listener();
    // A count-bounded level waits for its last requests as long as a request may take.
    Duration countGrace = endpoint.spec().requestTimeout().plusSeconds(5);
    // Through the same loop as the level, so its first measured request does not pay for a cold code path.
    Optional<WarmupRun.Result> warmed = WarmupRun.run(plan, maxTokens -> new LoadRunner(sender(endpoint, info, plan, maxTokens,
        replies), endpoint.client()::cancelAll, countGrace, LoadRunner.Observer.NONE), listener);
    Optional<WarmupReport> warmup = warmed.map(WarmupRun.Result::report);
    StopRule stop = plan.stop().on(info.embedded().isPresent());
    Duration grace = stop.match(c -> countGrace, t -> t.grace(), a -> countGrace);
    ClientMonitor client = ClientMonitor.start(endpoint.client().ioThreadPrefix());
    LoadRunner runner = new LoadRunner(sender(endpoint, info, plan, plan.maxTokens(), replies), endpoint.client()::cancelAll, grace,
        LoadRunner.Observer.both(progress, client));
    Optional<MetricsScraper> scraper = MetricsScraper.start(endpoint.client());
    warm.run(); // as near the first send as can be: after the server's counters are read
    // After a shard's wait for its slot, so that the GPUs' energy is the level's, not the wait's.
    List<LevelRecorder.Recording> recordings = recorders.stream().map(LevelRecorder::start).toList();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "llmbench-progress");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(() -> listener.levelProgress(sweep, progress.progress()), every.toNanos(), every.toNanos(),
        TimeUnit.NANOSECONDS);
    LoadRunner.Outcome outcome;
    Budget budget = SloAbortBudget.of(Budget.of(stop, plan.concurrency()), slo, stop);
    try {
      Budget stopping = Budget.stoppingWhenRefused(budget, plan.concurrency());
      Optional<SessionSource> sessions = plan.workload().prompts().sessions();
      outcome = Listeners.step(listener, "Measure " + plan.label(), () -> sessions.isPresent()
          ? runner.run(plan.load(), stopping, plan.seed(), sessions(endpoint, info, plan, sessions.get()))
          : runner.run(plan.load(), stopping, plan.seed(), plan.workload().prompts().arrivals().orElse(null)));
    } finally {
      ticker.shutdownNow();
      try {
        ticker.awaitTermination(1, TimeUnit.SECONDS); // no progress line after the level's own lines
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    List<String> notes = new ArrayList<>();
    if (budget instanceof SloAbortBudget abort) abort.abortNote(outcome.traces().size()).ifPresent(notes::add);
    ServerMetrics server = null;
    if (scraper.isPresent()) {
      server = scraper.get().stop().orElse(null);
      if (server == null) notes.add("the server's /metrics could not be read after the level: no server-side deltas");
    }
    int resends = outcome.traces().stream().mapToInt(t -> t.resends()).sum();
    if (resends > 0) {
      notes.add(resends + " request(s) went on a new connection because the pooled one given first had closed before a "
          + "byte of them left; none was sent twice to the server (llmbench.resends in the JSON)");
    }
    if (endpoint.client().serverClosesAfterEachResponse()) {
      notes.add("the server closes its connection after each response (though it answers keep-alive), so every "
          + "request went on a new connection with Connection: close; TTFT and latency include the connect");
    }
    // After the level, outside its window: the first chunk's tokens where the server bundled several and did not say.
    List<RequestMetrics> metrics = FirstChunkTokens.counted(outcome.traces(), endpoint.client(), info.model()).stream()
        .map(RequestMetrics::of).toList();
    ClientLoad load = client.stop(LevelStatistics.window(metrics));
    long outputTokens = metrics.stream().filter(RequestMetrics::succeeded).mapToLong(RequestMetrics::outputTokens).sum();
    List<Object> readings = new ArrayList<>();
    warmed.flatMap(WarmupRun.Result::asked).ifPresent(readings::add);
    for (LevelRecorder.Recording r : recordings) {
      LevelRecorder.Recorded recorded = r.stop(outputTokens);
      recorded.reading().ifPresent(readings::add);
      notes.addAll(recorded.notes());
    }
    return new MeasuredLevel(plan, info, metrics, slo, level.percentiles(), outcome.stopReason(), server, notes,
        new LevelExtras(warmup, Optional.of(load), level.facts(), readings));
  }

  /** Multi-turn sessions: each turn's whole reply goes into its session's history, so it is read in full. */
  private static Conversations sessions(Endpoint endpoint, EndpointInfo info, LevelPlan plan, SessionSource sessions) {
    return SessionTurns.of(sessions, plan.workload(), SALTS.nextLong(), plan.seed(), (request, headers, scheduled) ->
        endpoint.client().sendAsync(info.api(), info.model(), request, scheduled, TextCapture.FULL, headers));
  }

  /** Requests of one batch (a warm-up round, the level): a salt of their own keeps their prompts apart from any other's. */
  private static LoadRunner.Sender sender(Endpoint endpoint, EndpointInfo info, LevelPlan plan, int maxTokens,
      ReplyJudge replies) {
    long salt = SALTS.nextLong();
    if (plan.workload().extras().embeddings()) {
      return (index, scheduled) -> endpoint.client().embedAsync(info.model(), plan.workload().embeddingInputs(index, salt),
          scheduled);
    }
    if (plan.workload().prompts().keepsReplies()) { // an eval: whole replies, each known by its item
      return (index, scheduled) -> endpoint.client().sendAsync(info.api(), info.model(),
          plan.workload().request(index, maxTokens, salt), scheduled, TextCapture.FULL).thenApply(t -> t.withRequestIndex(index));
    }
    // Aligned rows each have a length of their own: a request is checked against its row's, so it keeps its index.
    boolean byRow = plan.workload().prompts().alignment().isPresent() && plan.workload().prompts().hasRows();
    return new LoadRunner.Sender() {
      @Override
      public CompletableFuture<RequestTrace> send(int index, long scheduled) {
        return prepare(index).send(scheduled);
      }

      @Override
      public LoadRunner.Prepared prepare(int index) {
        CompletionRequest request = plan.workload().request(index, maxTokens, salt);
        Optional<ReplyJudge.Check> check = replies.of(request.bodyFields());
        // Tool calls and JSON answers are judged whole, so their text is kept whole.
        StreamRequest ready = endpoint.client().prepare(info.api(), info.model(), request,
            check.isPresent() ? TextCapture.FULL : TextCapture.EXCERPT, Map.of());
        return new LoadRunner.Prepared() {
          @Override
          public CompletableFuture<RequestTrace> send(long scheduled) {
            CompletableFuture<RequestTrace> sent = endpoint.client().sendAsync(ready, scheduled);
            if (check.isPresent()) {
              sent = sent.thenApply(t -> {
                try {
                  return check.get().judge(t);
                } catch (RuntimeException e) { // a check must never lose a trace: the load runner waits for every one
                  return t.withReplyCheck(false, "the check itself failed: " + e);
                }
              });
            }
            return byRow ? sent.thenApply(t -> t.withRequestIndex(index)) : sent;
          }

          @Override
          public long bytes() {
            return ready.body().length;
          }
        };
      }
    };
  }
}
