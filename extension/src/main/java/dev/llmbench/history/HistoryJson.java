package dev.llmbench.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One level as one JSON line: {@code {"v":1,"run":{...},"level":{...},"figures":{"ttft.p99":{"value":87.5,"unit":"ms"}}}}.
 * {@code v} is the format's version: a reader takes every version it knows and skips (and reports) newer ones.
 */
final class HistoryJson {

  /** The version this code writes. Version 1 is the first. */
  static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private HistoryJson() {}

  static String write(LevelRecord record) {
    ObjectNode line = JSON.createObjectNode();
    line.put("v", VERSION);
    ObjectNode run = line.putObject("run");
    RunIdentity r = record.run();
    run.put("id", r.id());
    run.put("time", r.time().toString());
    run.put("commit", r.commit());
    run.put("branch", r.branch());
    run.put("build", r.build());
    run.put("engine", r.engine());
    run.put("engineVersion", r.engineVersion());
    run.put("model", r.model());
    run.put("host", r.host());
    ObjectNode level = line.putObject("level");
    LevelIdentity l = record.level();
    level.put("suite", l.suite());
    level.put("sweep", l.sweep());
    level.put("level", l.level());
    level.put("deployment", l.deployment());
    level.put("workload", l.workload());
    level.put("settings", l.settings());
    ObjectNode figures = line.putObject("figures");
    record.figures().forEach((name, f) -> figures.putObject(name).put("value", f.value()).put("unit", f.unit()));
    try {
      return JSON.writeValueAsString(line);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers always serialises", e);
    }
  }

  /** Parses one line; throws IllegalArgumentException saying why a line is not a level. */
  static LevelRecord read(String text) {
    JsonNode line;
    try {
      line = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON (" + e.getOriginalMessage() + ")");
    }
    if (line == null || !line.isObject()) throw new IllegalArgumentException("not a JSON object");
    int version = line.path("v").asInt(0);
    if (version < 1) throw new IllegalArgumentException("no format version (\"v\")");
    if (version > VERSION) {
      throw new IllegalArgumentException("format version " + version + " is newer than this LLMBench reads (" + VERSION + ")");
    }
    JsonNode run = required(line, "run");
    JsonNode level = required(line, "level");
    JsonNode figures = required(line, "figures");
    Instant time;
    try {
      time = Instant.parse(text(run, "time"));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("run.time is not an instant: " + run.path("time"));
    }
    RunIdentity identity = new RunIdentity(text(run, "id"), time, text(run, "commit"), text(run, "branch"),
        text(run, "build"), text(run, "engine"), text(run, "engineVersion"), text(run, "model"), text(run, "host"));
    LevelIdentity where = new LevelIdentity(text(level, "suite"), text(level, "sweep"), text(level, "level"),
        text(level, "deployment"), text(level, "workload"), text(level, "settings"));
    Map<String, StoredFigure> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> f : figures.properties()) {
      JsonNode value = f.getValue().path("value");
      if (!value.isNumber()) throw new IllegalArgumentException("figure " + f.getKey() + " has no numeric value");
      values.put(f.getKey(), new StoredFigure(value.asDouble(), f.getValue().path("unit").asText("")));
    }
    return new LevelRecord(identity, where, values);
  }

  private static JsonNode required(JsonNode node, String field) {
    JsonNode child = node.get(field);
    if (child == null || !child.isObject()) throw new IllegalArgumentException("no \"" + field + "\" object");
    return child;
  }

  private static String text(JsonNode node, String field) {
    return node.path(field).asText("");
  }
}
