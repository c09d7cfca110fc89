package dev.llmbench.sessions;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import dev.llmbench.result.LoadShape;
import dev.llmbench.Workload;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.workload.LengthDistribution;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import dev.llmbench.internal.junit.Annotations;
import dev.llmbench.internal.junit.ConfigurationErrors;

/**
 * {@code @Sessions} beside a sweep, read and checked when it is planned: its distributions, its file (read whole, so
 * that a bad conversation fails before any load), and how many sessions each level sends.
 */
final class SessionSettings {

  /**
   * An open loop whose think times alone would keep more sessions than this in flight (Little's law) is refused:
   * each holds its history, so memory, not the server, would end the level.
   */
  static final int MAX_SESSIONS_IN_FLIGHT = 100_000;

  private SessionSettings() {}

  /** The sweep's sessions, when it declares {@code @Sessions}. */
  public static Optional<SessionWorkload> of(ExtensionContext context, Workload workload) {
    Optional<Sessions> declared = Annotations.nearest(context, Sessions.class);
    if (declared.isEmpty()) return Optional.empty();
    Sessions s = declared.get();
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")
        || !workload.inputLength().isBlank() || !workload.outputLength().isBlank() || workload.maxTokens().length > 1) {
      throw new IllegalArgumentException("@Sessions makes each turn's prompt: remove @Workload's inputTokens, prompt, "
          + "prompts, inputLength and outputLength and give it one maxTokens (each turn's); a turn's length is "
          + "@Sessions(inputTokens = ...)");
    }
    if (s.sessions() < 0) throw new IllegalArgumentException("@Sessions 'sessions' must be 0 (automatic) or positive, was "
        + s.sessions());
    String header = s.affinityHeader().strip();
    if (!header.isEmpty() && !header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
      throw new IllegalArgumentException("@Sessions 'affinityHeader' \"" + s.affinityHeader() + "\" is not an HTTP header "
          + "name; use letters, digits and dashes, e.g. X-Session-ID");
    }
    LengthDistribution think = think(s.thinkTimeMillis());
    int maxTokens = workload.maxTokens()[0];
    if (s.file().isBlank()) {
      LengthDistribution turns = distribution(s.turns().isBlank() ? "4" : s.turns(), "turns");
      return Optional.of(SessionWorkload.synthetic(turns, distribution(s.inputTokens(), "inputTokens"), think, maxTokens,
          s.seed(), header.isEmpty() ? null : header));
    }
    if (!s.inputTokens().equals("64")) {
      throw new IllegalArgumentException("@Sessions reads its turns from " + s.file() + ": remove 'inputTokens' (the "
          + "conversations' turns are their own lengths)");
    }
    Path file = Path.of(s.file());
    ConversationFiles.Read read;
    try {
      read = ConversationFiles.read(file, s.format());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("@Sessions(format = " + s.format() + "): " + e.getMessage(), e);
    }
    LengthDistribution turns = s.turns().isBlank() ? null : distribution(s.turns(), "turns");
    return Optional.of(SessionWorkload.of(file, read.conversations(), turns, think, maxTokens, s.seed(),
        header.isEmpty() ? null : header).withModelFirst(read.modelFirst()));
  }

  /**
   * The sessions feature of a sweep whose levels send sessions; a sharded run is refused, since each shard would send
   * the same sessions (a session's turns cannot be split between processes).
   */
  static Optional<SweepFeature> feature(ExtensionContext context, List<LevelPlan> levels, boolean sharded) {
    Optional<SessionWorkload> sessions = levels.stream().map(l -> l.workload().prompts().sessions()).flatMap(Optional::stream)
        .filter(SessionWorkload.class::isInstance).map(SessionWorkload.class::cast).findFirst();
    if (sessions.isEmpty()) return Optional.empty();
    if (sharded) {
      throw ConfigurationErrors.sweep(ConfigurationErrors.where(context.getRequiredTestMethod()), new IllegalArgumentException(
          "@Sessions levels are not split between shards (a session's turns follow one another): run this sweep "
          + "unsharded, e.g. in a suite of its own without llmbench.shard.count"));
    }
    return Optional.of(new SessionFeature(sessions.get().describe()));
  }

  /** The sessions a level of {@code load} sends: the declared count, else 2 per slot or 10 seconds of arrivals, at least 4. */
  public static int sessionsPerLevel(ExtensionContext context, LoadShape load) {
    int declared = Annotations.nearest(context, Sessions.class).map(Sessions::sessions).orElse(0);
    if (declared > 0) return declared;
    return load.match(c -> Math.max(4, 2 * c.concurrency()), o -> Math.max(4, (int) Math.ceil(10 * o.rate().perSecond())));
  }

  /**
   * Refuses an open loop that would hold more sessions than a level can: by Little's law at least rate x (turns - 1)
   * x think time are thinking at once, whatever the server's speed.
   */
  public static void checkOpenLoop(String label, LoadShape load, SessionWorkload sessions) {
    load.match(c -> null, o -> {
      if (o.maxConcurrency().isPresent()) return null;
      double thinking = o.rate().perSecond() * Math.max(0, sessions.meanTurns() - 1) * sessions.meanThinkNanos() / 1e9;
      if (thinking > MAX_SESSIONS_IN_FLIGHT) {
        throw new IllegalArgumentException(label + ": " + Formats.rate(o.rate().perSecond()) + " sessions/s of "
            + Formats.number(sessions.meanTurns()) + " turns with think times of " + Formats.number(sessions.meanThinkNanos()
            / 1e6) + " ms on average keep at least " + Math.round(thinking) + " sessions in flight (rate x turns x think "
            + "time), more than the " + MAX_SESSIONS_IN_FLIGHT + " a level holds: cap them with @RateSweep(maxConcurrency = "
            + "N), lower the rate or shorten @Sessions(thinkTimeMillis)");
      }
      return null;
    });
  }

  private static LengthDistribution think(String text) {
    String t = text.strip();
    if (t.isEmpty() || t.equals("0")) return null;
    return distribution(t, "thinkTimeMillis");
  }

  private static LengthDistribution distribution(String text, String attribute) {
    try {
      return LengthDistribution.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@Sessions '" + attribute + "': " + e.getMessage(), e);
    }
  }
}
