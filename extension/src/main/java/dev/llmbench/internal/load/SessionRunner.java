package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Workload;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.result.LoadShape;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apiguardian.api.API;

/**
 * Sends a level's multi-turn sessions: closed loop (C sessions in flight, the next starting as one ends) or open
 * loop (sessions arriving after Gamma gaps, as {@link LoadRunner} draws requests'). Each turn sends the session's
 * whole history with the server's real replies; once its reply is in, the session waits its think time and sends
 * the next turn. Like {@link LoadRunner}, the calling thread does all the scheduling and the requests run on the
 * client's event loops; think times are deadlines in a queue this thread waits on, so they need no timer thread.
 *
 * <p>A count-bounded level starts sessions until their planned turns reach the count (whole sessions), and waits
 * for them all; a duration-bounded one stops starting sessions and turns when the time is up, then gives the
 * requests in flight the grace period. A failed turn ends its session: there is no reply to continue from.
 */
@API(status = INTERNAL)
public final class SessionRunner {

  /** What a level keeps of each reply, as of any load request; the session keeps the whole reply in its history. */
  static final int EXCERPT_CHARS = TextCapture.EXCERPT.maxChars();

  /** Sends one turn, meant to go at {@code scheduledNanos}; the future never completes exceptionally. */
  @FunctionalInterface
  public interface Sender {
    CompletableFuture<RequestTrace> send(CompletionRequest request, Map<String, String> headers, long scheduledNanos);
  }

  private final Sender sender;
  private final Runnable cancelInFlight;
  private final Duration grace;
  private final LoadRunner.Observer observer;

  public SessionRunner(Sender sender, Runnable cancelInFlight, Duration grace, LoadRunner.Observer observer) {
    this.sender = sender;
    this.cancelInFlight = cancelInFlight;
    this.grace = grace;
    this.observer = observer;
  }

  /**
   * Sends {@code sessions} under {@code load} until {@code budget} says stop.
   *
   * @param workload each turn's {@code max_tokens}, {@code ignore_eos}, temperature and prefix-cache rule
   * @param salt     keeps this batch's sessions apart from every other's under {@link Workload.PrefixCache#AVOID}
   */
  public LoadRunner.Outcome run(LoadShape load, Budget budget, long seed, SessionSource sessions, WorkloadPlan workload,
      long salt) {
    int cap = load.match(c -> c.concurrency(), o -> o.maxConcurrency().orElse(0));
    GammaDistribution gaps = load.match(c -> null, o -> new GammaDistribution(new Well19937c(seed), o.burstiness(),
        1.0 / (o.rate().perSecond() * o.burstiness())));
    return new Run(cap, gaps, budget, sessions, workload, salt, seed).go();
  }

  /** The session id an affinity header carries: unique to the batch and the session. */
  static String sessionId(long salt, int session) {
    return "session-" + PromptSource.marker(salt, session) + "-" + session;
  }

  /** One conversation under way: its history grows by the user's turn when sent and by the reply when it arrives. */
  private static final class Session {
    final int index;
    final int turns;
    final List<ChatMessage> history;
    int turn;
    long due; // when its next turn is due (its arrival, or the end of its think time)

    Session(int index, int turns, List<ChatMessage> opening, long due) {
      this.index = index;
      this.turns = turns;
      this.history = new ArrayList<>(opening.size() + 2 * turns);
      this.history.addAll(opening);
      this.due = due;
    }
  }

  private record Done(Session session, RequestTrace trace) {}

  private final class Run {
    private final int cap;
    private final GammaDistribution gaps;
    private final Budget budget;
    private final SessionSource source;
    private final WorkloadPlan workload;
    private final long salt;
    private final long seed;
    private final BlockingQueue<Done> completions = new LinkedBlockingQueue<>();
    private final PriorityQueue<Session> thinking = new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
    private final ArrayDeque<Session> waiting = new ArrayDeque<>(); // arrived while every slot was taken
    private final List<RequestTrace> done = new ArrayList<>();
    private final long begin = System.nanoTime();
    private final long sendingEnds;
    private int started; // sessions
    private int planned; // turns of the sessions started
    private int requests;
    private int active; // sessions started and not ended (in flight or thinking)
    private int inFlight;
    private long nextArrival;
    private long stoppedAt = Long.MAX_VALUE;
    private long cancelledAt = Long.MAX_VALUE;

    Run(int cap, GammaDistribution gaps, Budget budget, SessionSource source, WorkloadPlan workload, long salt, long seed) {
      this.seed = seed;
      this.cap = cap;
      this.gaps = gaps;
      this.budget = budget;
      this.source = source;
      this.workload = workload;
      this.salt = salt;
      this.sendingEnds = budget.timeLimit().map(d -> begin + d.toNanos()).orElse(Long.MAX_VALUE);
      this.nextArrival = begin;
    }

    LoadRunner.Outcome go() {
      try {
        loop();
      } catch (InterruptedException e) {
        cancelledAt = System.nanoTime();
        cancelInFlight.run();
        drain(Duration.ofSeconds(5));
        Thread.currentThread().interrupt();
      }
      return new LoadRunner.Outcome(LoadRunner.cancelledMarked(done, cancelledAt, stoppedAt, grace), budget.stopReason());
    }

    private void loop() throws InterruptedException {
      while (true) {
        long now = System.nanoTime();
        if (now - sendingEnds >= 0 && stoppedAt == Long.MAX_VALUE) {
          budget.mayIssue(planned, Duration.ofNanos(now - begin)); // says no: the stop reason is the duration's
          stop(now);
        }
        if (stoppedAt == Long.MAX_VALUE) startSessions(now);
        sendDueTurns(System.nanoTime());
        if (stoppedAt != Long.MAX_VALUE && active == 0) return;
        now = System.nanoTime();
        long graceEnds = stoppedAt == Long.MAX_VALUE || sendingEnds == Long.MAX_VALUE ? Long.MAX_VALUE
            : stoppedAt + grace.toNanos();
        if (now - graceEnds >= 0) {
          cancelledAt = now;
          cancelInFlight.run();
          drain(Duration.ofSeconds(30));
          return;
        }
        long wakeAt = graceEnds;
        if (stoppedAt == Long.MAX_VALUE) {
          wakeAt = Math.min(wakeAt, sendingEnds);
          if (gaps != null) wakeAt = Math.min(wakeAt, nextArrival);
        }
        if (!thinking.isEmpty()) wakeAt = Math.min(wakeAt, thinking.peek().due);
        Done d = wakeAt == Long.MAX_VALUE ? completions.take()
            : completions.poll(Math.max(0, wakeAt - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (d != null) completed(d);
        while ((d = completions.poll()) != null) completed(d);
      }
    }

    /** Closed loop: as many sessions as there are free slots; open loop: every session that has arrived. */
    private void startSessions(long now) {
      if (gaps == null) {
        while (active < cap) {
          if (!mayStart(System.nanoTime())) return;
          begin(newSession(System.nanoTime()));
        }
        return;
      }
      while (nextArrival - System.nanoTime() <= 0) {
        if (!mayStart(nextArrival)) return;
        Session s = newSession(nextArrival);
        if (cap > 0 && active >= cap) waiting.add(s);
        else begin(s);
        nextArrival += (long) (gaps.sample() * 1e9);
      }
    }

    private boolean mayStart(long at) {
      if (budget.mayIssue(planned, Duration.ofNanos(Math.max(0, at - begin)))) return true;
      stop(System.nanoTime());
      return false;
    }

    private Session newSession(long due) {
      int index = started++;
      Session s = new Session(index, Math.max(1, source.turns(index)), source.opening(index), due);
      planned += s.turns;
      return s;
    }

    private void begin(Session s) {
      active++;
      send(s);
    }

    /** Turns whose think time is over; after a duration-bounded level's end none is sent. */
    private void sendDueTurns(long now) {
      while (!thinking.isEmpty() && thinking.peek().due - now <= 0) {
        Session s = thinking.poll();
        if (stoppedAt != Long.MAX_VALUE && sendingEnds != Long.MAX_VALUE) {
          active--;
          continue;
        }
        send(s);
      }
    }

    private void send(Session s) {
      String text = source.userText(s.index, s.turn);
      if (s.turn == 0 && workload.prefixCache() == Workload.PrefixCache.AVOID) {
        text = PromptSource.marker(salt, s.index) + " " + text; // the session's own prefix, shared by all its turns
      }
      s.history.add(ChatMessage.user(text));
      CompletionRequest r = CompletionRequest.ofMessages(List.copyOf(s.history)).withMaxTokens(workload.maxTokens())
          .withIgnoreEos(workload.ignoreEos()).withSeed(seed + (long) s.index * 1024 + s.turn);
      if (workload.temperature() != null) r = r.withTemperature(workload.temperature());
      Map<String, String> headers = source.affinityHeader().map(h -> Map.of(h, sessionId(salt, s.index))).orElse(Map.of());
      int turn = s.turn;
      inFlight++;
      observer.sending(requests++, s.due);
      CompletableFuture<RequestTrace> f;
      try {
        f = sender.send(r, headers, s.due);
      } catch (RuntimeException e) {
        inFlight--;
        throw e;
      }
      f.whenComplete((t, e) -> {
        if (t != null) completions.add(new Done(s, t.withTurn(turn)));
      });
    }

    private void completed(Done d) {
      inFlight--;
      Session s = d.session();
      RequestTrace t = d.trace();
      String reply = t.content();
      RequestTrace kept = t.withTextKept(EXCERPT_CHARS);
      done.add(kept);
      budget.completed(kept);
      observer.completed(kept);
      boolean last = s.turn + 1 >= s.turns;
      boolean timeUp = stoppedAt != Long.MAX_VALUE && sendingEnds != Long.MAX_VALUE;
      if (!t.succeeded() || last || timeUp) {
        active--;
        if (!waiting.isEmpty() && (cap == 0 || active < cap)) begin(waiting.poll());
        return;
      }
      s.history.add(new ChatMessage("assistant", reply));
      s.due = System.nanoTime() + source.thinkNanos(s.index, s.turn);
      s.turn++;
      thinking.add(s);
    }

    private void stop(long now) {
      if (stoppedAt != Long.MAX_VALUE) return;
      stoppedAt = now;
      if (sendingEnds != Long.MAX_VALUE) { // time is up: sessions waiting for a slot or thinking send nothing more
        active -= waiting.size() + thinking.size();
        waiting.clear();
        thinking.clear();
      }
    }

    private void drain(Duration limit) {
      long until = System.nanoTime() + limit.toNanos();
      try {
        while (inFlight > 0) {
          long left = until - System.nanoTime();
          if (left <= 0) return;
          Done d = completions.poll(left, TimeUnit.NANOSECONDS);
          if (d == null) return;
          inFlight--;
          done.add(d.trace().withTextKept(EXCERPT_CHARS));
          budget.completed(d.trace());
          observer.completed(d.trace());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
