package dev.llmbench.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an agent trace whole, before any load, and checks it: every row's fields, each session's turns in order, each
 * sub-agent's parent (it exists, it has a turn after the spawn to join at, no cycle of parents), no negative time, no
 * tool result where no tool was called. A problem fails with the file, the line, the field and what is expected.
 */
final class AgentTraceReader {

  private static final ObjectMapper JSON = new ObjectMapper();
  static final String LLMBENCH_ROW = "{\"session\": \"a1\", \"turn\": 0, \"text\": \"...\", \"output_tokens\": 200, "
      + "\"tool_ms\": 850}";
  static final String MOONCAKE_ROW = "{\"session_id\": \"a1\", \"input_length\": 768, \"hash_ids\": [1, 2], "
      + "\"output_length\": 180, \"delay\": 2450}";

  /** A trace read: its top-level sessions (sub-agents inside their parents) and its blocks' size. */
  record Read(Path file, List<AgentSession> sessions, int blockTokens) implements AgentPool {
    Read {
      sessions = List.copyOf(sessions);
    }

    @Override
    public AgentSession agent(int index) {
      return sessions.get(Math.floorMod(index, sessions.size()));
    }

    @Override
    public String name() {
      return "agents:" + file.getFileName();
    }

    @Override
    public String describe() {
      return sessions.size() + " agents (" + allSessions() + " sessions with sub-agents) of " + file.getFileName();
    }

    @Override
    public double meanTurns() {
      return sessions.stream().mapToInt(s -> s.turns().size()).average().orElse(1);
    }

    @Override
    public double meanToolMillis() {
      return sessions.stream().flatMap(s -> s.turns().stream()).mapToDouble(AgentTurn::toolMillis).average().orElse(0);
    }

    /** Every session, sub-agents included. */
    int allSessions() {
      return sessions.stream().mapToInt(s -> 1 + s.subAgentCount()).sum();
    }
  }

  private AgentTraceReader() {}

  /** @throws BadInputException naming the file, line and field at fault, and the fix */
  static Read read(Path file, AgentTrace.Format format, int blockTokens) {
    if (format == AgentTrace.Format.WEKA) return WekaTraces.read(file, blockTokens);
    int block = blockTokens > 0 ? blockTokens : format == AgentTrace.Format.MOONCAKE ? 512 : 64;
    List<Row> rows = new ArrayList<>();
    Map<Integer, List<ChatMessage>> systems = new HashMap<>(); // one text per length, however many sessions ask for it
    String example = format == AgentTrace.Format.MOONCAKE ? MOONCAKE_ROW : LLMBENCH_ROW;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String text;
      long line = 0;
      while ((text = in.readLine()) != null) {
        line++;
        if (text.isBlank()) continue;
        JsonNode node;
        try {
          node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
          throw new BadInputException(file, line, "", "is not JSON (" + e.getOriginalMessage() + ")", "one turn a line: "
              + example, e);
        }
        if (node == null || !node.isObject()) throw new BadInputException(file, line, "", "is not a JSON object", example);
        Fields f = new Fields(file, line, node, block, systems);
        rows.add(format == AgentTrace.Format.MOONCAKE ? mooncakeRow(f) : llmbenchRow(f));
      }
    } catch (NoSuchFileException e) {
      throw new BadInputException(file.toAbsolutePath(), 0, "", "does not exist", "a path relative to the working directory (the module's "
          + "folder under Maven) or absolute");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
    }
    if (rows.isEmpty()) throw new BadInputException(file, 0, "", "has no turn", "one turn a line: " + example);
    return new Read(file, sessions(file, rows, format), block);
  }

  /** A row as read, before the sessions are put together. */
  private record Row(long line, String session, int turn, String parent, int spawnAfter, double startMillis,
      List<ChatMessage> opening, List<AgentTurn.Input> inputs, int outputTokens, double toolMillis, String tool,
      double delayMillis, boolean timestamped, boolean fork) {}

  private static Row llmbenchRow(Fields f) {
    String session = f.requiredText("session", "the agent's id, e.g. \"session\": \"a1\"");
    int turn = f.requiredInt("turn", 0, "the turn's index in its session, from 0");
    String parent = f.text("parent");
    int spawnAfter = f.integer("spawn_after", 0, -1);
    if (parent != null && spawnAfter < 0) {
      throw f.bad("spawn_after", "missing", "the parent's turn whose reply spawns this sub-agent, beside \"parent\"");
    }
    if (parent == null && spawnAfter >= 0) throw f.bad("parent", "missing", "the id of the session that spawns this one, "
        + "beside \"spawn_after\"");
    double start = f.number("start_ms", 0);
    String system = f.text("system");
    int systemTokens = f.integer("system_tokens", 1, 0);
    if (turn > 0) {
      for (String first : List.of("parent", "spawn_after", "start_ms", "system", "system_tokens", "fork")) {
        if (f.node.has(first)) throw f.bad(first, "is on turn " + turn, "it only on a session's first row (turn 0)");
      }
    }
    if (parent != null && f.node.has("start_ms")) {
      throw f.bad("start_ms", "is on a sub-agent", "no start_ms on a sub-agent: it starts when its parent's turn "
          + spawnAfter + " is answered");
    }
    if (system != null && systemTokens > 0) throw f.bad("system_tokens", "is beside \"system\"", "one of them");
    boolean fork = false;
    if (f.node.has("fork")) {
      if (!f.node.get("fork").isBoolean()) throw f.bad("fork", "is " + f.node.get("fork"), "true or false");
      fork = f.node.get("fork").asBoolean();
      if (fork && parent == null) {
        throw f.bad("fork", "is on a session without \"parent\"", "fork only on a sub-agent's first row: it starts "
            + "from its parent's history");
      }
      if (fork && (system != null || systemTokens > 0)) {
        throw f.bad("fork", "is beside \"" + (system != null ? "system" : "system_tokens") + "\"", "one of them: a fork "
            + "starts from its parent's history, its system prompt included");
      }
    }
    List<ChatMessage> opening = system != null ? List.of(ChatMessage.system(system))
        : systemTokens > 0 ? f.systems.computeIfAbsent(systemTokens, n -> List.of(ChatMessage.system(BlockWords.system(n))))
        : List.of();
    String role = f.text("role");
    if (role != null && !role.equals("user") && !role.equals("tool")) {
      throw f.bad("role", "is \"" + role + "\"", "\"user\" (the default) or \"tool\" (the result of the tool the turn "
          + "before called)");
    }
    boolean tool = "tool".equals(role);
    AgentTurn.Input input = f.input("text", "input_tokens", "hash_ids", tool);
    return new Row(f.line, session, turn, parent, spawnAfter, start, opening, List.of(input),
        f.integer("output_tokens", 1, 0), f.number("tool_ms", 0), f.text("tool") == null ? "" : f.text("tool"), 0, false,
        fork);
  }

  private static Row mooncakeRow(Fields f) {
    if (f.node.has("payload")) {
      throw f.bad("payload", "is a request body sent verbatim", "input_length, text_input or delta messages: a session's "
          + "turns are built here, each with the live replies before it");
    }
    String mode = f.text("message_mode");
    if (f.node.has("messages") && !"delta".equals(mode)) {
      throw f.bad("message_mode", mode == null ? "missing (AIPerf's default is \"history\": each row the whole recorded "
          + "conversation)" : "is \"" + mode + "\"", "\"delta\": each row's messages are what the client adds, the "
          + "server's live reply threaded between them");
    }
    String session = f.text("session_id");
    double delay = f.number("delay", 0);
    double start = f.number("timestamp", 0);
    List<ChatMessage> opening = new ArrayList<>();
    List<AgentTurn.Input> inputs = new ArrayList<>();
    JsonNode messages = f.node.get("messages");
    int kinds = (messages != null ? 1 : 0) + (f.node.has("text_input") ? 1 : 0) + (f.node.has("input_length") ? 1 : 0);
    if (kinds != 1) {
      throw f.bad("", kinds == 0 ? "has no input" : "has more than one input", "exactly one of input_length (with "
          + "hash_ids), text_input or messages");
    }
    if (messages != null) {
      if (!messages.isArray() || messages.isEmpty()) throw f.bad("messages", "is not a non-empty list", "a list of "
          + "{\"role\": ..., \"content\": \"...\"}");
      for (int i = 0; i < messages.size(); i++) {
        JsonNode m = messages.get(i);
        String at = "messages[" + i + "]";
        String r = m.path("role").isTextual() ? m.path("role").asText() : null;
        if (r == null) throw f.bad(at + ".role", "missing", "one of [system, user, tool]");
        if (!m.path("content").isTextual()) {
          throw f.bad(at + ".content", m.has("content") ? "is not a string" : "missing", "the message's text as a string");
        }
        String content = m.path("content").asText();
        switch (r) {
          case "system" -> {
            if (!inputs.isEmpty()) throw f.bad(at + ".role", "is \"system\" after other messages", "the system prompt "
                + "first, on a session's first row");
            opening.add(ChatMessage.system(content));
          }
          case "user" -> inputs.add(AgentTurn.Input.text(false, content));
          case "tool" -> inputs.add(AgentTurn.Input.text(true, content));
          case "assistant" -> throw f.bad(at + ".role", "is \"assistant\"", "what the client adds (system, user, tool): "
              + "the server's live reply goes between the turns");
          default -> throw f.bad(at + ".role", "is \"" + r + "\"", "one of [system, user, tool]");
        }
      }
      if (inputs.isEmpty()) throw f.bad("messages", "has only a system prompt", "at least one user or tool message");
    } else if (f.node.has("text_input")) {
      inputs.add(AgentTurn.Input.text(false, f.requiredText("text_input", "the prompt's text")));
    } else {
      inputs.add(f.input(null, "input_length", "hash_ids", false));
    }
    return new Row(f.line, session == null ? "row-" + f.line : session, -1, null, -1, start, opening, inputs,
        f.integer("output_length", 1, 0), 0, "", delay, f.node.has("timestamp"), false);
  }

  /** The rows' sessions put together and checked; the top-level ones returned, sub-agents inside their parents. */
  private static List<AgentSession> sessions(Path file, List<Row> rows, AgentTrace.Format format) {
    Map<String, List<Row>> bySession = new LinkedHashMap<>();
    for (Row r : rows) {
      List<Row> turns = bySession.computeIfAbsent(r.session(), k -> new ArrayList<>());
      if (format == AgentTrace.Format.LLMBENCH) {
        int expected = turns.size();
        if (r.turn() != expected) {
          String where = turns.isEmpty() ? "session \"" + r.session() + "\" starts at turn " + r.turn()
              : "comes after turn " + (expected - 1) + " of session \"" + r.session() + "\" (line "
                  + turns.get(turns.size() - 1).line() + ")";
          throw new BadInputException(file, r.line(), "turn", "is " + r.turn() + ": " + where + ", its turns out of order",
              "turn " + expected + ": each session's turns 0, 1, 2, ... in the file's order");
        }
        if (r.inputs().get(0).tool() && (turns.isEmpty() || !turn(turns.get(turns.size() - 1)).callsTool())) {
          throw new BadInputException(file, r.line(), "role", "is \"tool\", a tool result for a call that was never made: "
              + (turns.isEmpty() ? "it is the session's first turn" : "turn " + (expected - 1) + " (line "
                  + turns.get(turns.size() - 1).line() + ") calls no tool"), "\"user\", or tool_ms or tool on the turn "
              + "before");
        }
      } else if (!turns.isEmpty() && r.timestamped()) {
        // A later turn's absolute time would count the model's time as the tool's: the gap is what a session replays.
        throw new BadInputException(file, r.line(), "timestamp", "is on a later turn of session \"" + r.session() + "\"",
            "delay (ms after the previous turn's reply) on every turn but a session's first; timestamp only on its first");
      }
      turns.add(r);
    }
    // Parents: each exists, has a turn to join at after the spawn, and no chain of parents comes back to its start.
    Map<String, Row> first = new LinkedHashMap<>();
    bySession.forEach((id, turns) -> first.put(id, turns.get(0)));
    for (Row r : first.values()) {
      if (r.parent() == null) continue;
      List<Row> parent = bySession.get(r.parent());
      if (parent == null) {
        throw new BadInputException(file, r.line(), "parent", "\"" + r.parent() + "\" is no session of this file",
            "the id of a session of this file that spawns \"" + r.session() + "\"");
      }
      if (r.spawnAfter() >= parent.size() - 1) {
        throw new BadInputException(file, r.line(), "spawn_after", "is " + r.spawnAfter() + ", but session \"" + r.parent()
            + "\" has " + parent.size() + " turn(s), none after it to join at", parent.size() < 2 ? "a parent with a turn "
            + "after the spawn" : "0 to " + (parent.size() - 2) + ": a sub-agent ends before a later turn of its parent");
      }
      Set<String> chain = new LinkedHashSet<>();
      chain.add(r.session());
      Row at = r;
      while (at.parent() != null) {
        if (!chain.add(at.parent())) {
          throw new BadInputException(file, r.line(), "parent", "\"" + r.parent() + "\" closes a cycle of parents: "
              + String.join(" -> ", chain) + " -> " + at.parent(), "parents that end at a session without one");
        }
        at = first.get(at.parent());
        if (at == null) break;
      }
    }
    Map<String, List<Row>> children = new LinkedHashMap<>();
    for (Row r : first.values()) if (r.parent() != null) children.computeIfAbsent(r.parent(), k -> new ArrayList<>()).add(r);
    children.values().forEach(c -> c.sort(java.util.Comparator.comparingLong(Row::line)));
    List<AgentSession> roots = new ArrayList<>();
    bySession.forEach((id, turns) -> {
      if (turns.get(0).parent() == null) roots.add(session(id, bySession, children, List.of()));
    });
    return roots;
  }

  private static AgentSession session(String id, Map<String, List<Row>> bySession, Map<String, List<Row>> children,
      List<ChatMessage> inherited) {
    List<Row> rows = bySession.get(id);
    Row head = rows.get(0);
    List<ChatMessage> opening = head.opening().isEmpty() ? inherited : head.opening();
    List<AgentTurn> turns = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      // AIPerf's delay is the gap before its row: the tool time after the turn before.
      double tool = i + 1 < rows.size() && rows.get(i + 1).delayMillis() > 0 ? rows.get(i + 1).delayMillis() : r.toolMillis();
      turns.add(new AgentTurn(r.line(), r.inputs(), r.outputTokens(), tool, r.tool()));
    }
    Map<Integer, List<AgentSession>> sub = new HashMap<>();
    for (Row c : children.getOrDefault(id, List.of())) {
      sub.computeIfAbsent(c.spawnAfter(), k -> new ArrayList<>()).add(session(c.session(), bySession, children, opening));
    }
    return new AgentSession(id, head.line(), head.parent() == null ? head.startMillis() : 0, opening, turns, sub,
        head.fork());
  }

  private static AgentTurn turn(Row r) {
    return new AgentTurn(r.line(), r.inputs(), r.outputTokens(), r.toolMillis(), r.tool());
  }

  /** One row's fields, each read and checked with its line. */
  private static final class Fields {
    final Path file;
    final long line;
    final JsonNode node;
    final int block;
    final Map<Integer, List<ChatMessage>> systems;

    Fields(Path file, long line, JsonNode node, int block, Map<Integer, List<ChatMessage>> systems) {
      this.file = file;
      this.line = line;
      this.node = node;
      this.block = block;
      this.systems = systems;
    }

    BadInputException bad(String field, String problem, String expected) {
      return new BadInputException(file, line, field, problem, expected);
    }

    String text(String field) {
      JsonNode n = node.get(field);
      if (n == null || n.isNull()) return null;
      if (!n.isTextual()) throw bad(field, show(n) + " is not a string", "a string");
      return n.asText();
    }

    String requiredText(String field, String expected) {
      String t = text(field);
      if (t == null) throw bad(field, "missing", expected);
      return t;
    }

    int integer(String field, int min, int otherwise) {
      JsonNode n = node.get(field);
      if (n == null || n.isNull()) return otherwise;
      if (!n.isIntegralNumber() || !n.canConvertToInt()) throw bad(field, show(n) + " is not a whole number", "a whole "
          + "number of at least " + min);
      if (n.asInt() < min) throw bad(field, n.asInt() + " is " + (n.asInt() < 0 ? "negative" : "less than " + min),
          "a whole number of at least " + min);
      return n.asInt();
    }

    int requiredInt(String field, int min, String expected) {
      if (!node.has(field)) throw bad(field, "missing", expected);
      return integer(field, min, 0);
    }

    /** A time in ms, at least 0: a negative gap is refused. */
    double number(String field, double otherwise) {
      JsonNode n = node.get(field);
      if (n == null || n.isNull()) return otherwise;
      if (!n.isNumber()) throw bad(field, show(n) + " is not a number", "milliseconds, at least 0");
      if (n.asDouble() < 0 || !Double.isFinite(n.asDouble())) throw bad(field, show(n) + " is negative",
          "milliseconds, at least 0: a time between turns cannot run backwards");
      return n.asDouble();
    }

    /** The turn's one input: its text, or its length with the blocks it is made of. */
    AgentTurn.Input input(String textField, String tokensField, String idsField, boolean tool) {
      boolean hasText = textField != null && node.has(textField);
      boolean hasTokens = node.has(tokensField);
      if (hasText == hasTokens) {
        throw bad("", hasText ? "has both " + textField + " and " + tokensField : "has no input", textField == null
            ? tokensField : "one of " + textField + " (the message's text) or " + tokensField + " (its length in tokens, "
            + "with optional " + idsField + ")");
      }
      if (hasText) {
        if (node.has(idsField)) throw bad(idsField, "is beside " + textField, idsField + " only with " + tokensField);
        return AgentTurn.Input.text(tool, requiredText(textField, "the message's text"));
      }
      int tokens = integer(tokensField, 1, 0);
      JsonNode ids = node.get(idsField);
      long[] hashIds = null;
      if (ids != null && !ids.isNull()) {
        if (!ids.isArray()) throw bad(idsField, show(ids) + " is not a list", "a list of block ids, e.g. [0, 1, 2]");
        hashIds = new long[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
          JsonNode id = ids.get(i);
          if (!id.isIntegralNumber() || id.asLong() < 0) {
            throw bad(idsField, "element " + i + " (" + show(id) + ") is not a whole number of at least 0",
                "block ids, e.g. [0, 1, 2]");
          }
          hashIds[i] = id.asLong();
        }
        int blocks = (tokens + block - 1) / block;
        if (hashIds.length != blocks) {
          throw bad(idsField, hashIds.length + " ids for " + tokensField + " " + tokens + " in blocks of " + block
              + " tokens", blocks + " ids (one a block, the last may be partial), or another blockTokens in @AgentTrace");
        }
      }
      return new AgentTurn.Input(tool, null, tokens, hashIds);
    }

    private static String show(JsonNode n) {
      String s = n.toString();
      return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
  }
}
