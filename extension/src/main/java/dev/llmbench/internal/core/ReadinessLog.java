package dev.llmbench.internal.core;

import dev.llmbench.internal.format.Formats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What a readiness wait saw, one line per change of status, with the time since the wait began. */
final class ReadinessLog {

  private final long begin = System.nanoTime();
  private final List<String> lines = new ArrayList<>();
  private String last = "no answer yet";

  synchronized void saw(String status) {
    if (!status.equals(last) || lines.isEmpty()) {
      lines.add("+" + Formats.duration(elapsed()) + " " + status);
    }
    last = status;
  }

  synchronized String last() {
    return last;
  }

  synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - begin);
  }
}
