package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/**
 * The one runner of a level's load: sends its {@link Conversations} (single requests are conversations of one turn,
 * sessions of several), closed loop (exactly C under way), open loop (arrivals at a rate) or timed replay (at the
 * conversations' own times), bounded by a count or a duration, and returns every trace, failed ones included.
 * Non-blocking: the calling thread schedules every send, gap and completion, while the requests themselves run on
 * the client's event loops, so a level of 1,024 streams needs no more threads than a level of one. Results gathered
 * before an interruption are kept.
 */
@API(status = INTERNAL)
public final class LoadRunner {

  /** Sends request number {@code index}, meant to go at {@code scheduledNanos}, without waiting for it. */
  @FunctionalInterface
  public interface Sender {
    /** The future completes when the request ends, and never exceptionally: a failure is in its trace. */
    CompletableFuture<RequestTrace> send(int index, long scheduledNanos);

    /**
     * Makes request {@code index} ready before it is due (its prompt, its body's bytes), so that at its due time
     * sending it only hands bytes to the transport. By default nothing is made ahead.
     */
    default Prepared prepare(int index) {
      return scheduledNanos -> send(index, scheduledNanos);
    }
  }

  /** A request made before it is due; {@link #send} hands it over. */
  @FunctionalInterface
  public interface Prepared {
    /** Sends it, meant to go at {@code scheduledNanos}; as {@link Sender#send}. */
    CompletableFuture<RequestTrace> send(long scheduledNanos);

    /** The bytes it holds until it is sent: what a run's look-ahead counts against its limit. */
    default long bytes() {
      return 0;
    }
  }

  /**
   * An open loop's own schedule instead of drawn gaps, e.g. a trace's timestamps: asked in order, once per
   * request, for when request {@code index} is due.
   */
  @FunctionalInterface
  public interface Arrivals {
    /** Nanoseconds after the run's start at which request {@code index} is due; negative when the schedule has ended. */
    long offsetNanos(int index);
  }

  /** What a run produced. */
  public record Outcome(List<RequestTrace> traces, StopReason stopReason) {}

  /**
   * Watches a run as it goes (progress lines, the client's own load): called on the thread that runs the
   * level, one call at a time, so it must be quick; other threads may read what it keeps.
   */
  public interface Observer {
    Observer NONE = new Observer() {};

    /** The level's send number {@code index} (from 0) is about to go; it was due at {@code scheduledNanos}. */
    default void sending(int index, long scheduledNanos) {}

    /** A request ended, failed ones included. */
    default void completed(RequestTrace trace) {}

    /** Both observers, {@code first} told first. */
    static Observer both(Observer first, Observer second) {
      return new Observer() {
        @Override
        public void sending(int index, long scheduledNanos) {
          first.sending(index, scheduledNanos);
          second.sending(index, scheduledNanos);
        }

        @Override
        public void completed(RequestTrace trace) {
          first.completed(trace);
          second.completed(trace);
        }
      };
    }
  }

  private final Sender sender; // null: the conversations come with each run
  final Runnable cancelInFlight;
  final Duration grace;
  final Observer observer;

  /**
   * A runner of conversations given to each run.
   *
   * @param cancelInFlight aborts every request still running (used when the grace period ends)
   * @param grace          how long requests still in flight may finish once nothing more is sent
   * @param observer       told of every send and completion
   */
  public LoadRunner(Runnable cancelInFlight, Duration grace, Observer observer) {
    this(null, cancelInFlight, grace, observer);
  }

  /**
   * A runner of single requests, each a conversation of one turn.
   *
   * @param sender         sends one request
   * @param cancelInFlight aborts every request still running (used when the grace period ends)
   * @param grace          how long requests still in flight may finish after sending stopped
   * @param observer       told of every send and completion
   */
  public LoadRunner(Sender sender, Runnable cancelInFlight, Duration grace, Observer observer) {
    this.sender = sender;
    this.cancelInFlight = cancelInFlight;
    this.grace = grace;
    this.observer = observer;
  }

  /** Sends {@code load} until {@code budget} says stop; {@code seed} draws an open loop's arrivals. */
  public Outcome run(LoadShape load, Budget budget, long seed) {
    return run(load, budget, seed, (Arrivals) null);
  }

  /**
   * Sends {@code load} until {@code budget} says stop; an open loop's requests are due when {@code arrivals}
   * says (sending stops where it ends), or, when it is null, after gaps drawn with {@code seed}.
   */
  public Outcome run(LoadShape load, Budget budget, long seed, Arrivals arrivals) {
    if (sender == null) throw new IllegalStateException("this runner sends the conversations each run is given");
    return run(load, budget, seed, Conversations.of(sender, arrivals));
  }

  /**
   * Sends {@code conversations} under {@code load} until {@code budget} says stop: closed loop (C conversations under
   * way, the next starting as one ends), open loop (conversations arriving after gaps drawn with {@code seed}, at most
   * the cap under way) or timed replay (at the conversations' own times). The budget counts the requests of the
   * conversations started, their sub-conversations' included ({@link Conversation#requests()}): a count-bounded level
   * starts conversations until their requests reach the count, and every one it started ends; a time-bounded one starts nothing and sends no later turn once the time is up. Once nothing
   * more is to be sent, the requests in flight get the grace period, then are cancelled.
   */
  public Outcome run(LoadShape load, Budget budget, long seed, Conversations conversations) {
    return new RunLoop(this, load, budget, seed, conversations).go();
  }

  /**
   * The traces of a level that was cancelled at {@code cancelledAt} (never, when {@code Long.MAX_VALUE}), with
   * the requests the cancel cut marked cancelled and why: the run was stopped, or the grace period after
   * sending stopped at {@code stoppedAt} ended.
   */
  static List<RequestTrace> cancelledMarked(List<RequestTrace> done, long cancelledAt, long stoppedAt, Duration grace) {
    List<RequestTrace> traces = new ArrayList<>(done);
    if (cancelledAt != Long.MAX_VALUE) {
      String why = stoppedAt == Long.MAX_VALUE ? "still running when the run was stopped"
          : "still running when the grace period ended (" + Formats.duration(grace) + " after sending stopped)";
      traces.replaceAll(t -> !t.succeeded() && (t.failure().kind() == ErrorKind.CANCELLED || t.endNanos() >= cancelledAt)
          ? t.cancelled(why) : t);
    }
    return List.copyOf(traces);
  }
}
