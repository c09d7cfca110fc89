package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/** How a running level shows where it stands: one line redrawn in place, a plain line at each interval, or nothing. */
@API(status = INTERNAL)
public enum ProgressMode {
  /** {@link #REDRAW} on an interactive terminal, else {@link #LINES}. */
  AUTO,
  /** One line, redrawn in place with a carriage return, about every second. */
  REDRAW,
  /** A plain line at every {@code llmbench.progress-interval}, as a log or CI wants. */
  LINES,
  /** No progress lines. */
  OFF;

  static ProgressMode parse(String text) {
    try {
      return valueOf(text.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("write auto, redraw, lines or off");
    }
  }

  /**
   * What {@link #AUTO} comes to: a redrawn line when the JVM has a console (it does not when its output goes to a
   * file or a pipe, as in a Maven fork) and no CI says it runs the build ({@code CI}, set by GitHub Actions, GitLab,
   * CircleCI, Buildkite, Travis; {@code JENKINS_URL}; {@code TERM=dumb}).
   */
  public ProgressMode resolve(boolean hasConsole, Map<String, String> environment) {
    if (this != AUTO) return this;
    boolean ci = environment.containsKey("CI") || environment.containsKey("JENKINS_URL")
        || "dumb".equals(environment.get("TERM"));
    return hasConsole && !ci ? REDRAW : LINES;
  }
}
