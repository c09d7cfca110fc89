package dev.llmbench.agents;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Weka/AgentX agent traces (the kv-cache-tester spec AIPerf's {@code weka_trace} and guidellm's {@code kind=weka}
 * read): one JSON object a conversation, one after another in the file (JSON Lines, or a single object), each with
 * {@code id}, {@code block_size}, {@code system_tokens} and {@code requests}, a request {@code {t, in, out, think_time,
 * api_time}} or a {@code {"type": "subagent", "requests": [...]}} entry between two of its parent's requests. Read
 * whole and checked before load.
 *
 * <p>A Weka request's {@code in} is its whole prompt; a session here resends its live history, so turn k adds
 * {@code in(k) - in(k-1) - out(k-1)} new tokens (at least 1: a history the trace compacted is not shrunk), and the first
 * turn {@code in(0) - system_tokens}. The gap before a request is its {@code think_time}, else {@code t} minus the
 * previous request's {@code t} and {@code api_time} (AIPerf's end-to-start delay), else 0. A sub-agent starts fresh
 * with its own system prompt, after the parent's request before it, and ends before the parent's request after it; one
 * with no parent request before it, or none after it (AIPerf's background branch), or without requests
 * ({@code async_launched}) is left out. {@code hash_ids} are not used: the live history is what later turns share.
 */
final class WekaTraces {

  private static final ObjectMapper JSON = new ObjectMapper();
  static final String EXAMPLE = "{\"id\": \"trace_a1\", \"block_size\": 64, \"system_tokens\": 2304, \"requests\": "
      + "[{\"t\": 0.0, \"in\": 8192, \"out\": 312, \"think_time\": 0.0}, ...]}";

  private WekaTraces() {}

  /** @throws BadInputException naming the file, the line the conversation starts on, the field and the fix */
  static AgentTraceReader.Read read(Path file, int blockTokens) {
    List<AgentSession> sessions = new ArrayList<>();
    int[] block = {blockTokens};
    Map<Integer, List<ChatMessage>> systems = new HashMap<>(); // one text per length, however many conversations ask
    try (InputStream in = Files.newInputStream(file); JsonParser p = JSON.getFactory().createParser(in)) {
      p.setCodec(JSON);
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        long line = p.currentTokenLocation().getLineNr();
        if (t != JsonToken.START_OBJECT) throw new BadInputException(file, line, "", "is not a JSON object", EXAMPLE);
        JsonNode trace = p.readValueAsTree();
        sessions.add(conversation(new At(file, line, systems), trace, block));
      }
    } catch (NoSuchFileException e) {
      throw new BadInputException(file.toAbsolutePath(), 0, "", "does not exist", "a path relative to the working "
          + "directory (the module's folder under Maven) or absolute");
    } catch (JsonParseException e) {
      throw new BadInputException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(), "",
          "is not JSON (" + e.getOriginalMessage() + ")", "one conversation after another: " + EXAMPLE, e);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
    }
    if (sessions.isEmpty()) throw new BadInputException(file, 0, "", "has no conversation", EXAMPLE);
    return new AgentTraceReader.Read(file, sessions, block[0] > 0 ? block[0] : 64);
  }

  /** Where a conversation is in the file. */
  private record At(Path file, long line, Map<Integer, List<ChatMessage>> systems) {
    BadInputException bad(String field, String problem, String expected) {
      return new BadInputException(file, line, field, problem, expected);
    }
  }

  private static AgentSession conversation(At at, JsonNode trace, int[] block) {
    JsonNode id = trace.get("id");
    if (id == null || !id.isTextual()) throw at.bad("id", id == null ? "missing" : "is not a string", "the conversation's id");
    JsonNode size = trace.get("block_size");
    if (size != null) {
      if (!size.canConvertToInt() || !size.isIntegralNumber() || size.asInt() < 1) {
        throw at.bad("block_size", size + " is not a whole number of at least 1", "tokens per hash id, e.g. 64");
      }
      if (block[0] > 0 && block[0] != size.asInt()) {
        throw at.bad("block_size", "is " + size.asInt() + " where the file's (or blockTokens) is " + block[0],
            "one block size for every conversation of a file");
      }
      block[0] = size.asInt();
    }
    return session(at, id.asText(), trace, "");
  }

  /** A conversation or a sub-agent: {@code node}'s requests, its sub-agents between them. */
  private static AgentSession session(At at, String id, JsonNode node, String path) {
    int system = whole(at, node, path + "system_tokens", "system_tokens", 0, 0);
    List<ChatMessage> opening = system > 0
        ? at.systems().computeIfAbsent(system, n -> List.of(ChatMessage.system(BlockWords.system(n)))) : List.of();
    JsonNode requests = node.get("requests");
    if (requests == null || !requests.isArray()) {
      throw at.bad(path + "requests", requests == null ? "missing" : "is not a list", "a list of requests {\"t\", \"in\", "
          + "\"out\", ...} and sub-agents");
    }
    List<JsonNode> own = new ArrayList<>();
    List<String> ownPaths = new ArrayList<>();
    Map<Integer, List<AgentSession>> sub = new HashMap<>();
    List<AgentSession> pending = new ArrayList<>(); // sub-agents after the last request, joined by the next
    for (int i = 0; i < requests.size(); i++) {
      JsonNode r = requests.get(i);
      String at1 = path + "requests[" + i + "]";
      if (!r.isObject()) throw at.bad(at1, "is not an object", "a request {\"t\", \"in\", \"out\", ...} or a sub-agent");
      if ("subagent".equals(r.path("type").asText())) {
        if (own.isEmpty() || !r.path("requests").isArray() || r.path("requests").isEmpty()) continue; // nothing to spawn it
        String child = id + "::sa:" + (r.path("agent_id").isTextual() ? r.path("agent_id").asText() : Integer.toString(i));
        pending.add(session(at, child, r, at1 + "."));
        continue;
      }
      if (!pending.isEmpty()) {
        sub.put(own.size() - 1, List.copyOf(pending));
        pending.clear();
      }
      own.add(r);
      ownPaths.add(at1);
    }
    if (own.isEmpty()) throw at.bad(path + "requests", "has no request", "at least one request {\"t\", \"in\", \"out\"}");
    List<AgentTurn> turns = new ArrayList<>();
    int previousIn = system;
    int previousOut = 0;
    for (int k = 0; k < own.size(); k++) {
      JsonNode r = own.get(k);
      String p = ownPaths.get(k);
      int in = whole(at, r, p + ".in", "in", 1, -1);
      int out = whole(at, r, p + ".out", "out", 0, 0);
      double tool = 0;
      if (k + 1 < own.size()) {
        JsonNode next = own.get(k + 1);
        String np = ownPaths.get(k + 1);
        double think = seconds(at, next, np, "think_time", -1);
        double t = seconds(at, r, p, "t", -1);
        double nextT = seconds(at, next, np, "t", -1);
        double api = seconds(at, r, p, "api_time", -1);
        if (t >= 0 && nextT >= 0 && nextT < t) throw at.bad(np + ".t", nextT + " is before the request before it (" + t
            + ")", "requests in the order of their t");
        tool = think >= 0 ? think * 1000 : t >= 0 && nextT >= 0 && api >= 0 ? Math.max(0, nextT - t - api) * 1000 : 0;
      }
      int added = k == 0 ? in - system : in - previousIn - previousOut;
      turns.add(new AgentTurn(at.line(), List.of(new AgentTurn.Input(k > 0, null, Math.max(1, added), null)),
          out, tool, tool > 0 ? "tool" : ""));
      previousIn = in;
      previousOut = out;
    }
    return new AgentSession(id, at.line(), 0, opening, turns, sub);
  }

  private static int whole(At at, JsonNode node, String path, String field, int min, int otherwise) {
    JsonNode n = node.get(field);
    if (n == null || n.isNull()) {
      if (otherwise < 0) throw at.bad(path, "missing", "a whole number of at least " + min);
      return otherwise;
    }
    if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < min) {
      throw at.bad(path, n + " is not a whole number of at least " + min, "a whole number of at least " + min);
    }
    return n.asInt();
  }

  /** A time in seconds, at least 0; {@code otherwise} when absent or null. */
  private static double seconds(At at, JsonNode node, String path, String field, double otherwise) {
    JsonNode n = node.get(field);
    if (n == null || n.isNull()) return otherwise;
    if (!n.isNumber() || n.asDouble() < 0 || !Double.isFinite(n.asDouble())) {
      throw at.bad(path + "." + field, n + (n.isNumber() ? " is negative" : " is not a number"), "seconds, at least 0: "
          + "a time between requests cannot run backwards");
    }
    return n.asDouble();
  }
}
