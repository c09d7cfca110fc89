package dev.llmbench.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a server's log lines as they come and keeps the startup phases they show. Recognises the engine
 * from the first line that only it would print, then reads only that engine's lines; stops at
 * {@link StartupPhase#LISTENING}. Phases only move on: a phase already left is never entered again, as
 * tensor-parallel ranks repeat their lines out of step. A log no engine matches gives no phases and no
 * error. Thread-safe.
 */
final class StartupPhases {

  /** Colours (older vLLM colours its process tags): the patterns match the text without them. */
  static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");

  private record Mark(StartupPhase phase, long atNanos, boolean seen) {}

  private final Long launchedAtNanos;
  private final List<Mark> marks = new ArrayList<>();
  private final List<EngineTiming> timings = new ArrayList<>();
  private final Set<StartupPhase> visited = EnumSet.noneOf(StartupPhase.class);
  private Engine engine;

  private StartupPhases(Long launchedAtNanos) {
    this.launchedAtNanos = launchedAtNanos;
  }

  /** For a server launched at {@code nanoTime}: the time before its first phase line counts as starting. */
  public static StartupPhases fromLaunch(long nanoTime) {
    StartupPhases p = new StartupPhases(nanoTime);
    p.marks.add(new Mark(StartupPhase.STARTING, nanoTime, true));
    p.visited.add(StartupPhase.STARTING);
    return p;
  }

  /** For a log whose server was started by someone else: phases begin at the first recognised line. */
  public static StartupPhases fromLog() {
    return new StartupPhases(null);
  }

  public synchronized void accept(LogLine line) {
    if (listening()) return;
    String text = ANSI.matcher(line.text()).replaceAll("");
    if (engine == null) {
      engine = Engine.detect(text).orElse(null);
      if (engine == null) return;
    }
    Optional<StartupPhase> phase = engine.phaseOf(text);
    timings.addAll(engine.timingsIn(text, phase));
    if (phase.isEmpty() || visited.contains(phase.get())) return;
    visited.add(phase.get());
    marks.add(new Mark(phase.get(), line.atNanos(), !line.backlog()));
  }

  public synchronized Optional<Engine> engine() {
    return Optional.ofNullable(engine);
  }

  /** The phases so far, the last one timed up to {@code nowNanos} unless it is {@link StartupPhase#LISTENING}. */
  public synchronized PhaseHistory snapshot(long nowNanos) {
    if (engine == null) return PhaseHistory.NONE; // an unknown log: not even "starting" is worth printing
    List<PhaseSpan> spans = new ArrayList<>();
    for (int i = 0; i < marks.size(); i++) {
      Mark m = marks.get(i);
      boolean open = i == marks.size() - 1;
      long end = open ? Math.max(nowNanos, m.atNanos()) : marks.get(i + 1).atNanos();
      Duration time = m.phase() == StartupPhase.LISTENING ? Duration.ZERO : Duration.ofNanos(end - m.atNanos());
      spans.add(new PhaseSpan(m.phase(), time, open && m.phase() != StartupPhase.LISTENING, m.seen()));
    }
    return new PhaseHistory(Optional.of(engine), spans, timings);
  }

  public PhaseHistory snapshot() {
    return snapshot(System.nanoTime());
  }

  /** Time since launch, for a launched server. */
  public Optional<Duration> sinceLaunch(long nowNanos) {
    return launchedAtNanos == null ? Optional.empty() : Optional.of(Duration.ofNanos(nowNanos - launchedAtNanos));
  }

  private Optional<StartupPhase> current() {
    return marks.isEmpty() ? Optional.empty() : Optional.of(marks.get(marks.size() - 1).phase());
  }

  private boolean listening() {
    return current().filter(StartupPhase.LISTENING::equals).isPresent();
  }
}
