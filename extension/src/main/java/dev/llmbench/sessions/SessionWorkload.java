package dev.llmbench.sessions;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.load.Markers;
import dev.llmbench.internal.load.RowSource;
import dev.llmbench.internal.load.SessionSource;
import dev.llmbench.internal.workload.LengthDistribution;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * A level's sessions: synthetic (turn count and each user turn's length drawn from distributions) or the user
 * turns of a file's conversations, each session's think times drawn per turn. Every draw is a pure function of
 * the seed and the session's and turn's indices. As {@link RowSource}, request {@code i} is session
 * {@code i}'s first turn: what a warm-up sends.
 */
@API(status = INTERNAL)
public final class SessionWorkload implements RowSource, SessionSource {

  /** At most this many turns a session, so that a turn's index fits the draws' index space. */
  static final int MAX_TURNS = 1000;
  private static final long LENGTH_SALT = 0x7475726e4c656eL;
  private static final long THINK_SALT = 0x7468696e6b4dL;
  private static final String[] WORDS = ("could you explain how the cache keeps the earlier turns of this chat so that "
      + "my next question about memory batching latency and throughput is answered faster than the first one was").split(" ");

  private final LengthDistribution turns; // null: every user turn of the conversation
  private final LengthDistribution inputTokens; // null for a file
  private final LengthDistribution thinkMillis; // null: no think time
  private final List<Transcript> conversations; // empty for synthetic turns
  private final Path file; // null for synthetic turns
  private final int maxTokens;
  private final long seed;
  private final String affinityHeader; // null for none
  /** Conversations of the file that began with the model's turn, which is not sent; set once, before any level. */
  private int modelFirst;

  private SessionWorkload(LengthDistribution turns, LengthDistribution inputTokens, LengthDistribution thinkMillis,
      List<Transcript> conversations, Path file, int maxTokens, long seed, String affinityHeader) {
    this.turns = turns;
    this.inputTokens = inputTokens;
    this.thinkMillis = thinkMillis;
    this.conversations = List.copyOf(conversations);
    this.file = file;
    this.maxTokens = maxTokens;
    this.seed = seed;
    this.affinityHeader = affinityHeader;
  }

  /** Synthetic sessions. */
  public static SessionWorkload synthetic(LengthDistribution turns, LengthDistribution inputTokens,
      LengthDistribution thinkMillis, int maxTokens, long seed, String affinityHeader) {
    return new SessionWorkload(turns, inputTokens, thinkMillis, List.of(), null, maxTokens, seed, affinityHeader);
  }

  /** Sessions of a file's conversations; {@code turns}, when given, draws at most that many of each one's user turns. */
  public static SessionWorkload of(Path file, List<Transcript> conversations, LengthDistribution turns,
      LengthDistribution thinkMillis, int maxTokens, long seed, String affinityHeader) {
    if (conversations.isEmpty()) throw new IllegalArgumentException(file + " has no conversations");
    return new SessionWorkload(turns, null, thinkMillis, conversations, file, maxTokens, seed, affinityHeader);
  }

  /** What a sessions level takes beside it: a duration or a target interval, never a count of requests (it counts sessions). */
  static boolean takesBeside(dev.llmbench.internal.load.WorkloadSource.Beside beside) {
    return beside == dev.llmbench.internal.load.WorkloadSource.Beside.DURATION_OR_TARGET;
  }

  @Override
  public boolean takes(dev.llmbench.internal.load.WorkloadSource.Beside beside) {
    return takesBeside(beside);
  }

  @Override
  public Optional<String> instead(dev.llmbench.internal.load.AdviceSetting setting) {
    return setting.beside().filter(b -> b == dev.llmbench.internal.load.WorkloadSource.Beside.REQUEST_COUNT)
        .map(b -> "measure more sessions: @Sessions(sessions = N), or bound the level with @Measurement(duration)");
  }

  /** These sessions, saying that {@code count} of the file's conversations began with the model's turn. */
  SessionWorkload withModelFirst(int count) {
    SessionWorkload copy = new SessionWorkload(turns, inputTokens, thinkMillis, conversations, file, maxTokens, seed, affinityHeader);
    copy.modelFirst = count;
    return copy;
  }

  @Override
  public List<String> warnings() {
    return modelFirst == 0 ? List.of() : List.of(modelFirst + " of the " + conversations.size() + " conversations of "
        + file.getFileName() + " began with the model's turn: it was not sent, each such session starts at its first user turn");
  }

  /** What the sweep's table says of the prompts, e.g. {@code sessions(turns=4, input=64)} or {@code sessions:chats.json}. */
  public String name() {
    return file != null ? "sessions:" + file.getFileName()
        : "sessions(turns=" + turns.spec() + ", input=" + inputTokens.spec() + ")";
  }

  /** The turn count's description for people. */
  public String describe() {
    String think = thinkMillis == null ? "no think time" : "think time " + thinkMillis.spec() + " ms";
    return (file != null ? conversations.size() + " conversations of " + file.getFileName() + (turns == null ? ", every user turn"
        : ", turns " + turns.spec()) : "synthetic sessions, turns " + turns.spec() + ", user turns of " + inputTokens.spec()
        + " tokens") + ", " + think + (affinityHeader == null ? "" : ", session header " + affinityHeader);
  }

  private Transcript conversation(int session) {
    return conversations.get((int) Math.floorMod(seed + session, (long) conversations.size()));
  }

  @Override
  public int turns(int session) {
    if (file == null) return Math.min(MAX_TURNS, turns.draw(seed, session));
    int all = Math.min(MAX_TURNS, conversation(session).userTurns().size());
    return turns == null ? all : Math.min(all, turns.draw(seed, session));
  }

  @Override
  public List<ChatMessage> opening(int session) {
    return file == null ? List.of() : conversation(session).opening();
  }

  @Override
  public String userText(int session, int turn) {
    if (file != null) return conversation(session).userTurns().get(turn);
    int index = session * MAX_TURNS + turn; // wraps past 2 million sessions: still a pure function of both
    int words = inputTokens.draw(seed ^ LENGTH_SALT, index);
    SplittableRandom r = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (index + 1L)));
    StringBuilder s = new StringBuilder(words * 7);
    s.append("Turn ").append(turn + 1).append(':');
    for (int w = 1; w < words; w++) s.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
    return s.toString();
  }

  @Override
  public long thinkNanos(int session, int turn) {
    return thinkMillis == null ? 0 : thinkMillis.draw(seed ^ THINK_SALT, session * MAX_TURNS + turn) * 1_000_000L;
  }

  @Override
  public Optional<String> affinityHeader() {
    return Optional.ofNullable(affinityHeader);
  }

  @Override
  public double meanTurns() {
    if (file == null) return Math.min(MAX_TURNS, turns.mean());
    double all = conversations.stream().mapToInt(c -> Math.min(MAX_TURNS, c.userTurns().size())).average().orElse(1);
    return turns == null ? all : Math.min(all, turns.mean());
  }

  @Override
  public double meanThinkNanos() {
    return thinkMillis == null ? 0 : thinkMillis.mean() * 1e6;
  }

  /** Session {@code index}'s first turn, alone: a warm-up's request. */
  @Override
  public CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace) {
    List<ChatMessage> messages = new ArrayList<>(opening(index));
    String text = userText(index, 0);
    messages.add(ChatMessage.user(namespace == 0 ? text : Markers.marker(namespace, index) + " " + text));
    CompletionRequest r = CompletionRequest.ofMessages(messages).withMaxTokens(maxTokens).withIgnoreEos(ignoreEos)
        .withSeed(seed + (long) index * 1024);
    return temperature == null ? r : r.withTemperature(temperature);
  }

  /** Synthetic sessions and a file's conversations start as the load shape says. */
  @Override
  public Optional<LoadRunner.Arrivals> arrivals() {
    return Optional.empty();
  }

  @Override
  public Optional<SessionSource> sessions() {
    return Optional.of(this);
  }

  /** The sum of the turns of sessions {@code 0 .. count - 1}: a level of {@code count} whole sessions sends this many requests. */
  public int turnsOfFirst(int count) {
    long sum = 0;
    for (int s = 0; s < count; s++) sum += turns(s);
    return (int) Math.min(Integer.MAX_VALUE, sum);
  }
}
