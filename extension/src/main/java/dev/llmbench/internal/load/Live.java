package dev.llmbench.internal.load;

/**
 * A conversation of a level, as {@link RunLoop} keeps it: before it starts, its index and when it is due (0 in a closed
 * loop, where it starts when a slot frees up) and, once made ahead, its first turn ready to go (or why making it
 * failed, thrown when it is sent); once started, the turn it sends next and when that turn is due; a sub-conversation
 * (index -1) knows its parent.
 */
final class Live {
  final int index;
  long due;
  Conversation conversation;
  int turns;
  int turn;
  LoadRunner.Prepared ready;
  RuntimeException failed;
  Live parent; // the conversation this one was fanned out from, or null
  int pending; // sub-conversations under way that its next turn waits for

  Live(int index, long due) {
    this.index = index;
    this.due = due;
  }
}
