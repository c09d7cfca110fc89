package dev.llmbench.internal.startup;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** The last lines of a server's log, for error messages; a progress-bar redraw replaces the line it redraws. */
final class RecentLines {

  private record Entry(String text, boolean overwritable) {}

  private final int capacity;
  private final Deque<Entry> lines = new ArrayDeque<>();

  RecentLines(int capacity) {
    if (capacity < 1) throw new IllegalArgumentException("keep at least one log line, not " + capacity);
    this.capacity = capacity;
  }

  synchronized void add(String text, boolean overwritable) {
    if (!lines.isEmpty() && lines.peekLast().overwritable()) lines.pollLast();
    lines.addLast(new Entry(text, overwritable));
    if (lines.size() > capacity) lines.pollFirst();
  }

  synchronized List<String> lines() {
    List<String> out = new ArrayList<>(lines.size());
    for (Entry e : lines) out.add(e.text());
    return out;
  }
}
