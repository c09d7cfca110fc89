package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.RequestTrace;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One conversation of a level, as {@link LoadRunner} drives it: its turns one after another, each sent once the reply
 * to the one before is in and the gap after that reply (a user's think time) is over. A single request is a
 * conversation of one turn; a session's turns resend its history with the server's live replies. Called on the
 * runner's thread only, one call at a time.
 */
@API(status = INTERNAL)
public interface Conversation {

  /** The turns it sends when none fails, at least 1. */
  int turns();

  /**
   * The requests it sends when none fails, those of every sub-conversation it will start included (at least its
   * turns): counted against a count-bounded level's budget when it starts, so that a level starts whole trees of
   * conversations, not one more while an earlier one's sub-conversations have yet to start.
   */
  default int requests() {
    return turns();
  }

  /**
   * Makes turn {@code turn} (from 0) ready to send. The first turn may be made before it is due (look-ahead); a later
   * one is made once the reply to the turn before it is in ({@link #replied}) and its gap is over.
   */
  LoadRunner.Prepared prepare(int turn);

  /** What the level keeps of turn {@code turn}'s trace, e.g. an excerpt of a reply the conversation read whole. */
  default RequestTrace kept(int turn, RequestTrace trace) {
    return trace;
  }

  /**
   * The reply to {@code turn} is in, it succeeded, and a turn follows: the conversation remembers the reply (its next
   * turn resends it) and says what comes before the next turn.
   */
  default Next replied(int turn, RequestTrace trace) {
    return Next.NOW;
  }

  /**
   * What comes between a reply and the next turn: a gap (a user's think time, a tool's run; {@code 0}: at once) and
   * sub-conversations (e.g. sub-agents) that start at once, each on its own, and that must all end before the next
   * turn goes (if one fails, the others and the next turn still go). Their requests were counted with their root's
   * ({@link #requests()}); once a time-bounded level's time is up, none sends a later turn.
   *
   * @param gapNanos how long after the reply the next turn is due at the earliest, in nanoseconds
   * @param children the sub-conversations, none by default
   */
  record Next(long gapNanos, List<Conversation> children) {
    public static final Next NOW = new Next(0);

    public Next {
      if (gapNanos < 0) throw new IllegalArgumentException("a gap must not be negative, was " + gapNanos);
      children = List.copyOf(children);
    }

    /** Only a gap. */
    public Next(long gapNanos) {
      this(gapNanos, List.of());
    }
  }
}
