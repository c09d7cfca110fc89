package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * The startup phases a server's log showed, with the time in each: what progress lines and reports print,
 * e.g. {@code loading model 4.1 s → warming up 0.3 s → listening}. Empty for an engine whose log is not
 * recognised.
 *
 * @param engine        the engine the log came from, when recognised
 * @param spans         the phases in the order the log entered them; the last may still be open
 * @param engineTimings durations the engine printed itself, in log order
 */
@API(status = INTERNAL)
public record PhaseHistory(Optional<Engine> engine, List<PhaseSpan> spans, List<EngineTiming> engineTimings) {

  public static final PhaseHistory NONE = new PhaseHistory(Optional.empty(), List.of(), List.of());

  public PhaseHistory {
    spans = List.copyOf(spans);
    engineTimings = List.copyOf(engineTimings);
  }

  public boolean isEmpty() {
    return spans.isEmpty() && engineTimings.isEmpty();
  }

  /** The phase the server is in now (or was in when its log ended). */
  public Optional<StartupPhase> current() {
    return spans.isEmpty() ? Optional.empty() : Optional.of(spans.get(spans.size() - 1).phase());
  }

  /** Whether the log said the server's HTTP server is up. */
  public boolean listening() {
    return current().filter(p -> p == StartupPhase.LISTENING).isPresent();
  }

  /** The same history with its last phase ended: for a server that has exited, nothing lasts "so far". */
  public PhaseHistory ended() {
    if (spans.isEmpty() || !spans.get(spans.size() - 1).open()) return this;
    List<PhaseSpan> closed = new ArrayList<>(spans);
    PhaseSpan last = closed.remove(closed.size() - 1);
    closed.add(new PhaseSpan(last.phase(), last.time(), false, last.startSeen()));
    return new PhaseHistory(engine, closed, engineTimings);
  }

  /** Total time seen in {@code phase}, over every span of it. */
  public Duration timeIn(StartupPhase phase) {
    return spans.stream().filter(s -> s.phase() == phase).map(PhaseSpan::time).reduce(Duration.ZERO, Duration::plus);
  }

  /** Engine, phases and the engine's own durations on one line, or empty when there is none of them. */
  public String describe() {
    if (isEmpty()) return "";
    StringBuilder s = new StringBuilder(engine.map(Engine::displayName).orElse("server")).append(": ");
    s.append(spans.isEmpty() ? "no phase yet" : toString());
    if (!engineTimings.isEmpty()) {
      s.append(" (").append(engine.map(Engine::displayName).orElse("the server")).append(" printed: ")
          .append(engineTimings.stream().map(EngineTiming::toString).collect(Collectors.joining(", "))).append(')');
    }
    return s.toString();
  }

  /** The phases only: {@code loading model 4.1 s → warming up 0.3 s → listening}. */
  @Override
  public String toString() {
    return spans.stream().map(PhaseSpan::toString).collect(Collectors.joining(" → "));
  }

  /** {@code 0.3 s}, {@code 41.2 s}, {@code 12 min 5 s}: phases last seconds to many minutes. */
  public static String seconds(Duration d) {
    double s = d.toNanos() / 1e9;
    if (s < 60) return String.format(Locale.ROOT, "%.1f s", s);
    long whole = Math.round(s);
    return whole / 60 + " min " + whole % 60 + " s";
  }
}
