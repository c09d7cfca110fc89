package dev.llmbench.internal.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a server's log lines as they come and keeps the startup phases they show. Recognises the engine
 * from the first line that one of them would print, then reads only that engine's lines; stops at
 * {@link StartupPhase#LISTENING}. A log no engine matches gives no phases and no error. Thread-safe.
 */
public final class StartupPhases {

  private record Mark(StartupPhase phase, long atNanos, boolean seen) {}

  private final Long launchedAtNanos;
  private final List<Mark> marks = new ArrayList<>();
  private final List<EngineTiming> timings = new ArrayList<>();
  private Engine engine;

  private StartupPhases(Long launchedAtNanos) {
    this.launchedAtNanos = launchedAtNanos;
  }

  /** For a server launched at {@code nanoTime}: the time before its first phase line counts as starting. */
  public static StartupPhases fromLaunch(long nanoTime) {
    StartupPhases p = new StartupPhases(nanoTime);
    p.marks.add(new Mark(StartupPhase.STARTING, nanoTime, true));
    return p;
  }

  /** For a log whose server was started by someone else: phases begin at the first recognised line. */
  public static StartupPhases fromLog() {
    return new StartupPhases(null);
  }

  public synchronized void accept(LogLine line) {
    if (listening()) return;
    if (engine == null) {
      engine = Engine.detect(line.text()).orElse(null);
      if (engine == null) return;
    }
    Optional<StartupPhase> phase = engine.phaseOf(line.text());
    timings.addAll(engine.timingsIn(line.text(), phase));
    if (phase.isEmpty() || current().filter(phase.get()::equals).isPresent()) return;
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
