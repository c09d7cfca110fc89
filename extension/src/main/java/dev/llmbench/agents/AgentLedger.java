package dev.llmbench.agents;

import java.util.ArrayList;
import java.util.List;

/**
 * What the runner told the agents of a sweep as it ran them: when each agent (and sub-agent) was started, when each
 * of its turns was made ready to send, when each reply came in and the tool time it was given. The runner's traces do
 * not say which session a request belonged to, so the level's figures pair them with these times ({@link AgentRuns}).
 * One generation per level: every level starts its agents from index 0. Written on the runner's thread, read once the
 * level has ended.
 */
final class AgentLedger {

  /** One run of a session (an agent or a sub-agent) in a level. */
  static final class Run {
    final AgentSession session;
    final Run parent; // null for a top-level agent
    final int spawnedAfter; // the parent's turn, -1 for a top-level agent
    final long[] preparedNanos;
    final long[] repliedNanos;
    final long[] gapNanos;
    final List<Run> children = new ArrayList<>();

    Run(AgentSession session, Run parent, int spawnedAfter) {
      this.session = session;
      this.parent = parent;
      this.spawnedAfter = spawnedAfter;
      int turns = session.turns().size();
      this.preparedNanos = new long[turns];
      this.repliedNanos = new long[turns];
      this.gapNanos = new long[turns];
    }

    boolean top() {
      return parent == null;
    }
  }

  /** The runs of one level. */
  static final class Generation {
    final long startedNanos;
    final List<Run> agents = new ArrayList<>(); // top-level, by index
    final List<Run> all = new ArrayList<>(); // sub-agents too, as they started

    Generation(long startedNanos) {
      this.startedNanos = startedNanos;
    }
  }

  private final List<Generation> generations = new ArrayList<>();

  /** Top-level agent {@code index} starts; index 0 opens a new level. */
  synchronized Run started(int index, AgentSession session) {
    if (index == 0 || generations.isEmpty()) generations.add(new Generation(System.nanoTime()));
    Generation g = generations.get(generations.size() - 1);
    Run run = new Run(session, null, -1);
    while (g.agents.size() < index) g.agents.add(null); // a level always starts 0, 1, 2, ...: never taken
    if (g.agents.size() == index) g.agents.add(run);
    else g.agents.set(index, run);
    g.all.add(run);
    return run;
  }

  /** A sub-agent spawned after {@code turn} of {@code parent} starts. */
  synchronized Run spawned(Run parent, int turn, AgentSession session) {
    Run run = new Run(session, parent, turn);
    parent.children.add(run);
    if (!generations.isEmpty()) generations.get(generations.size() - 1).all.add(run);
    return run;
  }

  synchronized void prepared(Run run, int turn) {
    run.preparedNanos[turn] = System.nanoTime();
  }

  synchronized void replied(Run run, int turn, long gapNanos) {
    run.repliedNanos[turn] = System.nanoTime();
    run.gapNanos[turn] = gapNanos;
  }

  /** The runs of the level that started last before {@code nanos} (its first request's start); null when none did. */
  synchronized Generation at(long nanos) {
    Generation found = null;
    for (Generation g : generations) if (g.startedNanos - nanos <= 0) found = g;
    return found;
  }
}
