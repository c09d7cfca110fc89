package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a level sends: conversations started in order (0, 1, 2, ...), each a pure function of its index and the
 * level's seed, so runs repeat exactly. The load shape says when each starts, unless the conversations carry a
 * schedule of their own (a trace's timestamps: timed replay).
 */
@API(status = INTERNAL)
public interface Conversations {

  /** Conversation {@code index}; asked at most once per index, in ascending order, on the runner's thread. */
  Conversation start(int index);

  /** The conversations' own schedule (timed replay), or empty to start them as the level's load shape says. */
  default Optional<LoadRunner.Arrivals> arrivals() {
    return Optional.empty();
  }

  /**
   * Single requests, each a conversation of one turn that {@code sender} makes, due when {@code arrivals} says
   * (null: as the load shape says).
   */
  static Conversations of(LoadRunner.Sender sender, LoadRunner.Arrivals arrivals) {
    Objects.requireNonNull(sender, "sender");
    return new Conversations() {
      @Override
      public Conversation start(int index) {
        return new Conversation() {
          @Override
          public int turns() {
            return 1;
          }

          @Override
          public LoadRunner.Prepared prepare(int turn) {
            return sender.prepare(index);
          }
        };
      }

      @Override
      public Optional<LoadRunner.Arrivals> arrivals() {
        return Optional.ofNullable(arrivals);
      }
    };
  }
}
