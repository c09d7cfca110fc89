package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * Time spent in one startup phase, measured between the log lines that began and ended it.
 *
 * @param phase     the phase
 * @param time      from its first line to the next phase's first line, or to now while it lasts
 * @param open      whether the server is still in it
 * @param startSeen false when it began before the log was read (a log file named by the user), so
 *                  {@code time} is only the part that was seen
 */
@API(status = INTERNAL)
public record PhaseSpan(StartupPhase phase, Duration time, boolean open, boolean startSeen) {

  @Override
  public String toString() {
    if (phase == StartupPhase.LISTENING) return phase.label();
    if (!startSeen && time.isZero()) return phase.label();
    return phase.label() + " " + (startSeen ? "" : "≥") + PhaseHistory.seconds(time) + (open ? " so far" : "");
  }
}
