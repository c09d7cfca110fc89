package dev.llmbench.internal.load;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.result.LoadShape;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;

/**
 * One run of {@link LoadRunner}: its state is confined to the calling thread; completions arrive through a queue,
 * and gaps between turns are deadlines in a queue this thread waits on, so they need no timer thread.
 */
final class RunLoop {

  /** How long cancelled requests may take to report back once the grace period has ended. */
  private static final Duration AFTER_CANCEL = Duration.ofSeconds(30);
  /** At most this many conversations' first turns are made ahead of their due times, */
  private static final int AHEAD = 64;
  /** holding at most this many bytes (a trace's prompts can be long), */
  private static final long AHEAD_BYTES = 8L << 20;
  /** and one is made only when the next due one is at least this far off (plus twice what making one takes). */
  private static final long AHEAD_MARGIN = TimeUnit.MICROSECONDS.toNanos(200);

  /** A turn's trace, as an event loop hands it over. */
  private record Done(Live live, int turn, boolean followed, RequestTrace trace) {}

  private final Conversations source;
  private final Budget budget;
  private final Runnable cancelInFlight;
  private final Duration grace;
  private final LoadRunner.Observer observer;
  private final int cap; // conversations under way at most (0: no cap, an open loop's default)
  private final boolean closed;
  private final GammaDistribution gaps; // an open loop's, Gamma(burstiness, 1 / (rate x burstiness)) as vLLM's; or null
  private final LoadRunner.Arrivals arrivals; // the conversations' own schedule, or null
  private final Mailbox<Done> completions = new Mailbox<>(); // from the event loops
  private final List<RequestTrace> done = new ArrayList<>();
  private final ArrayDeque<Live> waiting = new ArrayDeque<>(); // due while every slot was taken, in order
  /** The next conversations to start, in order, their due times drawn; the first {@code ready} of them made ahead. */
  private final ArrayDeque<Live> upcoming = new ArrayDeque<>();
  private final PriorityQueue<Live> between = new PriorityQueue<>(Comparator.comparingLong((Live l) -> l.due)); // gaps
  private final long begin = System.nanoTime();
  private final long sendingEnds;
  private int counted; // requests of the conversations started, their sub-conversations included: what the budget counts
  private int sends;
  private int planned; // the index after the last upcoming conversation
  private long lastDue;
  private boolean scheduleEnded;
  private int ready;
  private long readyBytes;
  private long prepareNanos; // what making a turn ahead took lately (decaying): one is made only when this much is free
  private int underWay; // started and not ended: in flight or between turns
  private int inFlight;
  private int followed; // turns in flight that another turn of their conversation follows
  private int fannedOut; // conversations waiting for their sub-conversations
  private long stoppedAt = Long.MAX_VALUE;
  private long graceFrom = Long.MAX_VALUE;
  private boolean followedAfterStop;
  private long cancelledAt = Long.MAX_VALUE;

  RunLoop(LoadRunner runner, LoadShape load, Budget budget, long seed, Conversations source) {
    this.source = source;
    this.budget = budget;
    this.cancelInFlight = runner.cancelInFlight;
    this.grace = runner.grace;
    this.observer = runner.observer;
    this.arrivals = source.arrivals().orElse(null);
    this.cap = load.match(c -> c.concurrency(), o -> o.maxConcurrency().orElse(0));
    this.closed = load instanceof LoadShape.ClosedLoop;
    this.gaps = closed || arrivals != null ? null : load.match(c -> null, o -> new GammaDistribution(new Well19937c(seed),
        o.burstiness(), 1.0 / (o.rate().perSecond() * o.burstiness())));
    this.sendingEnds = budget.timeLimit().map(d -> begin + d.toNanos()).orElse(Long.MAX_VALUE);
    this.lastDue = begin;
    next();
  }

  LoadRunner.Outcome go() {
    try {
      loop();
    } catch (InterruptedException e) {
      cancelledAt = System.nanoTime();
      cancelInFlight.run();
      drainAfterCancel(Duration.ofSeconds(5));
      Thread.currentThread().interrupt();
    }
    return new LoadRunner.Outcome(LoadRunner.cancelledMarked(done, cancelledAt, stoppedAt, grace), budget.stopReason());
  }

  private void loop() throws InterruptedException {
    while (true) {
      long now = System.nanoTime();
      if (stoppedAt == Long.MAX_VALUE) startWhatIsDue(now);
      startQueued();
      sendTurnsDue(System.nanoTime());
      if (stoppedAt != Long.MAX_VALUE && underWay == 0 && waiting.isEmpty()) return;
      long graceEnds = graceEnds();
      now = System.nanoTime();
      if (now - graceEnds >= 0) {
        waiting.clear(); // due but never sent: not requests of this level
        cancelledAt = now;
        cancelInFlight.run();
        drainAfterCancel(AFTER_CANCEL);
        return;
      }
      if (stoppedAt == Long.MAX_VALUE) prepareAhead();
      long wakeAt = graceEnds; // Long.MAX_VALUE: no time to wake at, only a completion
      if (stoppedAt == Long.MAX_VALUE) {
        if (now - sendingEnds < 0) wakeAt = Math.min(wakeAt, sendingEnds);
        Live next = closed ? null : next();
        if (next != null) wakeAt = Math.min(wakeAt, next.due);
      }
      if (!between.isEmpty()) wakeAt = Math.min(wakeAt, between.peek().due);
      Done d = completions.await(wakeAt);
      if (d != null) completed(d);
      while ((d = completions.poll()) != null) completed(d);
    }
  }

  /**
   * When the requests in flight must have ended: the grace period runs once sending stopped and no conversation has a
   * turn to send after the ones in flight (a count-bounded level's conversations all run to their end first).
   */
  private long graceEnds() {
    if (stoppedAt == Long.MAX_VALUE) return Long.MAX_VALUE;
    if (!timeUp() && (!between.isEmpty() || followed > 0 || fannedOut > 0)) {
      followedAfterStop = true;
      graceFrom = Long.MAX_VALUE;
      return Long.MAX_VALUE;
    }
    if (graceFrom == Long.MAX_VALUE) graceFrom = followedAfterStop ? System.nanoTime() : stoppedAt;
    return graceFrom + grace.toNanos();
  }

  /** Whether sending stopped at a time limit: then no conversation sends a later turn. */
  private boolean timeUp() {
    return stoppedAt != Long.MAX_VALUE && sendingEnds != Long.MAX_VALUE;
  }

  /** Starts the conversations due now, until the budget says stop. */
  private void startWhatIsDue(long now) {
    if (closed) {
      while (underWay < cap) {
        if (!budget.mayIssue(counted, Duration.ofNanos(System.nanoTime() - begin))) {
          stop();
          return;
        }
        Live u = take();
        underWay++;
        send(u, System.nanoTime());
      }
      if (now - sendingEnds >= 0 && !budget.mayIssue(counted, Duration.ofNanos(now - begin))) stop();
      return;
    }
    Live next = next();
    if (next == null) { // the schedule has ended: nothing more is due
      stop();
      return;
    }
    while (next.due - System.nanoTime() <= 0) {
      if (!budget.mayIssue(counted, Duration.ofNanos(next.due - begin))) {
        stop();
        return;
      }
      Live u = take();
      if (cap > 0 && underWay >= cap) {
        waiting.add(u);
      } else {
        underWay++;
        send(u, u.due);
      }
      next = next();
      if (next == null) {
        stop();
        return;
      }
    }
    // A timed budget stops at its limit even when the next arrival is far off.
    if (now - sendingEnds >= 0 && !budget.mayIssue(counted, Duration.ofNanos(now - begin))) stop();
  }

  /** The next conversation to start, its due time drawn; null when the schedule has ended. */
  private Live next() {
    if (upcoming.isEmpty() && !plan()) return null;
    return upcoming.peekFirst();
  }

  /** Takes the next conversation off the upcoming ones; its turns count against the budget from now on. */
  private Live take() {
    Live u = next();
    upcoming.pollFirst();
    if (u.ready != null || u.failed != null) {
      ready--;
      if (u.ready != null) readyBytes -= u.ready.bytes();
    }
    Live c = conversation(u);
    counted += Math.max(c.turns, c.conversation.requests()); // its whole tree: its sub-conversations add nothing later
    return u;
  }

  private Live conversation(Live u) {
    if (u.conversation == null) {
      u.conversation = source.start(u.index);
      u.turns = Math.max(1, u.conversation.turns());
    }
    return u;
  }

  /** Draws the due time of one more conversation; false when the schedule has ended. */
  private boolean plan() {
    if (scheduleEnded) return false;
    long due;
    if (closed) {
      due = 0;
    } else if (arrivals == null) {
      due = planned == 0 ? begin : lastDue + (long) (gaps.sample() * 1e9);
    } else {
      long offset = arrivals.offsetNanos(planned);
      due = offset < 0 ? Long.MAX_VALUE : begin + offset;
    }
    if (due == Long.MAX_VALUE) {
      scheduleEnded = true;
      return false;
    }
    lastDue = due;
    upcoming.addLast(new Live(planned++, due));
    return true;
  }

  /**
   * While nothing is due, makes the next conversations' first turns ready (prompt and body), so that at its due time
   * a request only goes to the transport: peers build every request before the clock starts; a trace can be far
   * larger than memory, so here at most {@link #AHEAD} turns or {@link #AHEAD_BYTES} are made ahead. One is made only
   * when the next due one leaves time for it; a closed loop makes one, the one the next free slot takes.
   */
  private void prepareAhead() {
    while (true) {
      boolean first = ready == 0;
      if (!first && (closed || ready >= AHEAD || readyBytes >= AHEAD_BYTES)) return;
      if (upcoming.size() <= ready && !plan()) return;
      long start = System.nanoTime();
      if (!first && upcoming.peekFirst().due - start < AHEAD_MARGIN + 2 * prepareNanos) return;
      Live u = nth(ready);
      try {
        u.ready = conversation(u).conversation.prepare(0);
        readyBytes += u.ready.bytes();
      } catch (RuntimeException e) { // thrown when it is sent: a request the budget never sends must not fail the run
        u.failed = e;
      }
      ready++;
      long took = System.nanoTime() - start;
      prepareNanos = Math.max(took, prepareNanos - (prepareNanos >> 3));
      if (!completions.isEmpty()) return; // completions are taken first: they free slots and tell the budget
    }
  }

  /** The {@code n}th upcoming conversation, from 0; the look-ahead is short, so a walk is cheap. */
  private Live nth(int n) {
    var it = upcoming.iterator();
    for (int i = 0; i < n; i++) it.next();
    return it.next();
  }

  /** Conversations that waited for a slot start as slots free up, their wait counted as their first turn's queue time. */
  private void startQueued() {
    while (!waiting.isEmpty() && underWay < cap) {
      Live q = waiting.poll();
      underWay++;
      send(q, q.due);
    }
  }

  /** Turns whose gap is over; once the time is up none is sent. */
  private void sendTurnsDue(long now) {
    while (!between.isEmpty() && between.peek().due - now <= 0) {
      Live s = between.poll();
      if (timeUp()) {
        end(s);
        continue;
      }
      send(s, s.due);
    }
  }

  private void stop() {
    if (stoppedAt != Long.MAX_VALUE) return;
    stoppedAt = System.nanoTime();
    if (sendingEnds != Long.MAX_VALUE) { // time is up: conversations between turns send nothing more
      List<Live> dropped = new ArrayList<>(between);
      between.clear();
      dropped.forEach(this::end);
    }
  }

  private void send(Live s, long scheduledNanos) {
    boolean follows = s.turn + 1 < s.turns;
    inFlight++;
    if (follows) followed++;
    observer.sending(sends++, scheduledNanos);
    CompletableFuture<RequestTrace> f;
    try {
      if (s.failed != null) throw s.failed;
      f = (s.ready != null ? s.ready : s.conversation.prepare(s.turn)).send(scheduledNanos);
    } catch (RuntimeException e) {
      inFlight--;
      if (follows) followed--;
      throw e;
    }
    s.ready = null; // its bytes are the transport's now
    int turn = s.turn;
    f.whenComplete((t, e) -> {
      if (t == null) return;
      completions.add(new Done(s, turn, follows, t));
    });
  }

  private void completed(Done d) {
    ended(d);
    Live s = d.live();
    if (!d.trace().succeeded() || !d.followed() || timeUp()) { // a failed turn leaves no reply to continue from
      end(s);
      return;
    }
    Conversation.Next next = s.conversation.replied(d.turn(), d.trace());
    long now = System.nanoTime();
    s.due = now + next.gapNanos();
    s.turn++;
    if (next.children().isEmpty()) {
      between.add(s);
      return;
    }
    // Sub-conversations start at once, each on its own; the next turn waits for them all, and for its gap.
    fannedOut++;
    s.pending = next.children().size();
    for (Conversation c : next.children()) {
      Live child = new Live(-1, now);
      child.conversation = c;
      child.turns = Math.max(1, c.turns());
      child.parent = s;
      send(child, now);
    }
  }

  /** {@code s} sends nothing more: its slot frees up or, once a parent's sub-conversations have all ended, it goes on. */
  private void end(Live s) {
    if (s.parent == null) {
      underWay--;
      return;
    }
    Live parent = s.parent;
    if (--parent.pending > 0) return;
    fannedOut--;
    if (timeUp()) {
      end(parent);
      return;
    }
    parent.due = Math.max(parent.due, System.nanoTime());
    between.add(parent);
  }

  /** Turn {@code d} is no longer in flight: the level keeps it, the budget and the observer are told. */
  private void ended(Done d) {
    inFlight--;
    if (d.followed()) followed--;
    RequestTrace kept = d.live().conversation.kept(d.turn(), d.trace());
    done.add(kept);
    budget.completed(kept);
    observer.completed(kept);
  }

  /** After a cancel, every request still in flight reports back at once; waits for them, within {@code limit}. */
  private void drainAfterCancel(Duration limit) {
    long until = System.nanoTime() + limit.toNanos();
    try {
      while (inFlight > 0) {
        long left = until - System.nanoTime();
        if (left <= 0) return;
        Done d = completions.await(until);
        if (d == null) return;
        ended(d);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
