package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.client.LlmReply;
import dev.llmbench.client.RequestFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the run tells its reports: the console, the files and Allure each subscribe to these events.
 * Events arrive on the test's own thread, in order; every method has a default that ignores the event.
 */
@API(status = INTERNAL)
public interface BenchListener {

  /**
   * The readiness wait is still going, {@code waited} in; {@code startup} is what the server's own log says
   * (empty when none is read), {@code last} what the last probe saw.
   */
  default void readinessProgress(String url, Duration waited, Duration limit, String startup, String last) {}

  /** The run started a server itself: its command (without environment values), process id and log. */
  default void serverLaunched(String command, long pid, Path log) {}

  /** The run started a server in a container: what (container id, image and command, no environment values) and its log. */
  default void containerStarted(String container, Path log) {}

  /** The run stopped the server it started: how it ended. */
  default void serverStopped(String command, String ending) {}

  default void endpointReady(EndpointInfo endpoint) {}

  /** The wait gave up; {@code log} is what it saw, one line per change of status. */
  default void endpointNotReady(String url, List<String> log) {}

  /** A unit of work that reports may show as a step (Allure), ended by {@link #stepFinished}. */
  default void stepStarted(String name) {}

  default void stepFinished(String name, Throwable failure) {}

  default void promptSent(String prompt) {}

  default void replyReceived(LlmReply reply) {}

  default void requestFailed(RequestFailure failure) {}

  /** A level is about to wait for its endpoint, warm up and measure. */
  default void levelStarted(SweepRun sweep, LevelStart level) {}

  /** A level is still measuring: where it stands, at the progress interval. Arrives on a timer thread. */
  default void levelProgress(SweepRun sweep, LevelProgress progress) {}

  /** A level was measured; reports write it before any assertion can fail. */
  default void levelFinished(SweepRun sweep, MeasuredLevel level) {}

  /** The sweep ended, for the levels that ran (all of them, or those a filter selected). */
  default void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {}

  /** The run ended: every endpoint is closed. */
  default void runFinished() {}
}
