package dev.llmbench.internal.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.EndpointInfo;
import dev.llmbench.Workload;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * A shard's own account of its run, {@code shard.json} beside its reports: which shard it was, the schedule,
 * and for every level in run order the whole level's plan, this shard's share of it (or why it had none),
 * when the level was due and when it began, and what it measured (the wall-clock time of its first send,
 * which puts its requests on a timeline shared with the other shards). The merge reads the plans and the
 * timeline from here and the requests from the level files.
 *
 * @param levels every level this shard reached, in run order
 */
@API(status = INTERNAL)
public record Manifest(Shard shard, String host, List<LevelEntry> levels) {

  public static final String FILE = "shard.json";
  static final int FORMAT = 1;

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public Manifest {
    levels = List.copyOf(levels);
  }

  /**
   * One level as this shard saw it.
   *
   * @param slot        0-based position in the run: the level was due at {@code start + slot x slot length}
   * @param className   binary name of the class declaring the sweep
   * @param dueAt       when the schedule wanted it to start; empty without a schedule
   * @param late        how long after {@code dueAt} it began (zero when on time); empty until it began
   * @param share       this shard's plan; empty when it had no share
   * @param skipped     why it had no share, or empty
   * @param result      what it measured; empty when skipped or when the level did not end in a result
   */
  public record LevelEntry(int slot, String className, String method, String label, Optional<Instant> dueAt,
      Optional<Duration> late, LevelPlan whole, Optional<LevelPlan> share, String skipped, ServiceLevels slo,
      List<Double> percentiles, Optional<Result> result) {

    public LevelEntry {
      percentiles = List.copyOf(percentiles);
    }

    /** The sweep's report folder name, as a single run names it. */
    public String sweepId() {
      return className.replace('$', '.') + "." + method;
    }

    /** This level as begun {@code lateBy} behind its slot (public for the merge's tests, which write shards). */
    public LevelEntry began(Duration lateBy) {
      return new LevelEntry(slot, className, method, label, dueAt, Optional.of(lateBy), whole, share, skipped, slo,
          percentiles, result);
    }

    LevelEntry measured(Result r) {
      return new LevelEntry(slot, className, method, label, dueAt, late, whole, share, skipped, slo, percentiles,
          Optional.of(r));
    }
  }

  /**
   * What a shard measured of a level.
   *
   * @param firstSend  wall-clock time of the level's first send: the records' offsets count from it
   * @param requests   requests it holds, failed ones included
   * @param endpoint   what it ran against
   */
  public record Result(Instant firstSend, int requests, StopReason stopReason, EndpointInfo endpoint) {}

  // ---- writing

  /** Writes {@value #FILE} into {@code dir} (public for the merge's tests, which write shards). */
  public void write(Path dir) {
    try {
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, FILE, ".tmp");
      Files.writeString(tmp, JSON.writeValueAsString(toJson()));
      Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + dir.resolve(FILE)
          + "; check that the folder is writable, or set llmbench.report.dir to one that is", e);
    }
  }

  ObjectNode toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("index", shard.index());
    root.put("count", shard.count());
    shard.start().ifPresent(s -> root.put("start", s.toString()));
    shard.slot().ifPresent(s -> root.put("slot", s.toString()));
    root.put("host", host);
    ArrayNode list = root.putArray("levels");
    for (LevelEntry l : levels) {
      ObjectNode n = list.addObject();
      n.put("slot", l.slot());
      n.put("class", l.className());
      n.put("method", l.method());
      n.put("label", l.label());
      l.dueAt().ifPresent(d -> n.put("due_at", d.toString()));
      l.late().ifPresent(d -> n.put("late", d.toString()));
      n.set("whole", plan(l.whole()));
      l.share().ifPresent(s -> n.set("share", plan(s)));
      if (!l.skipped().isEmpty()) n.put("skipped", l.skipped());
      n.set("slo", slo(l.slo()));
      ArrayNode ps = n.putArray("percentiles");
      l.percentiles().forEach(ps::add);
      l.result().ifPresent(r -> {
        ObjectNode res = n.putObject("result");
        res.put("first_send", r.firstSend().toString());
        res.put("requests", r.requests());
        res.put("stop_reason", r.stopReason().name());
        res.set("endpoint", endpoint(r.endpoint()));
      });
    }
    return root;
  }

  private static ObjectNode plan(LevelPlan p) {
    ObjectNode n = JSON.createObjectNode();
    n.put("label", p.label());
    p.load().match(c -> n.put("load", "closed").put("concurrency", c.concurrency()), o -> {
      n.put("load", "open").put("rate", o.rate().perSecond()).put("burstiness", o.burstiness());
      o.maxConcurrency().ifPresent(k -> n.put("max_concurrency", k));
      return n;
    });
    p.stop().match(c -> n.put("stop", "count").put("requests", c.requests()),
        t -> n.put("stop", "duration").put("duration", t.duration().toString()).put("grace", t.grace().toString()),
        a -> n.put("stop", "adaptive").put("target_half_width", a.targetHalfWidth()).put("min_requests", a.minRequests())
            .put("max_requests", a.maxRequests()).put("max_duration", a.maxDuration().toString()));
    WorkloadPlan w = p.workload();
    n.put("max_tokens", w.maxTokens());
    n.put("input_tokens", w.inputTokens());
    n.put("ignore_eos", w.ignoreEos());
    if (w.temperature() != null) n.put("temperature", w.temperature());
    n.put("prompts", w.prompts().name());
    n.put("prefix_cache", w.prefixCache().name());
    n.put("warmup_requests", p.warmupRequests());
    n.put("warmup_max_tokens", p.warmupMaxTokens());
    n.put("seed", p.seed());
    return n;
  }

  private static ObjectNode slo(ServiceLevels s) {
    ObjectNode n = JSON.createObjectNode();
    n.put("percentile", s.percentile());
    s.ttft().ifPresent(d -> n.put("ttft", d.toString()));
    s.tpot().ifPresent(d -> n.put("tpot", d.toString()));
    s.e2eLatency().ifPresent(d -> n.put("e2e_latency", d.toString()));
    return n;
  }

  private static ObjectNode endpoint(EndpointInfo e) {
    ObjectNode n = JSON.createObjectNode();
    n.put("url", e.url());
    n.put("model", e.model());
    n.put("api", e.api().name().toLowerCase(Locale.ROOT));
    e.embedded().ifPresent(p -> n.put("embedded", p));
    e.serverVersion().ifPresent(v -> n.put("server_version", v));
    e.deployment().ifPresent(d -> n.put("deployment", d));
    n.put("time_to_ready", e.timeToReady().toString());
    return n;
  }

  // ---- reading

  /** The manifest in {@code dir}; a file that is not one says which field is wrong. */
  public static Manifest read(Path dir) {
    Path file = dir.resolve(FILE);
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      if (root.path("format").asInt() != FORMAT) {
        throw new IllegalArgumentException("format " + root.path("format") + " is not " + FORMAT
            + "; merge with the LLMBench version that ran the shards");
      }
      Shard shard = new Shard(required(root, "index").asInt(), required(root, "count").asInt(),
          optional(root, "start", Instant::parse), optional(root, "slot", Duration::parse));
      List<LevelEntry> levels = new ArrayList<>();
      for (JsonNode n : root.path("levels")) {
        Optional<Result> result = n.has("result") ? Optional.of(result(n.get("result"))) : Optional.empty();
        levels.add(new LevelEntry(required(n, "slot").asInt(), text(n, "class"), text(n, "method"), text(n, "label"),
            optional(n, "due_at", Instant::parse), optional(n, "late", Duration::parse), plan(required(n, "whole")),
            n.has("share") ? Optional.of(plan(n.get("share"))) : Optional.empty(), n.path("skipped").asText(""),
            slo(n.path("slo")), doubles(n.path("percentiles")), result));
      }
      return new Manifest(shard, root.path("host").asText(""), levels);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(file + " is not a shard manifest LLMBench can read: " + e.getMessage(), e);
    }
  }

  private static LevelPlan plan(JsonNode n) {
    LoadShape load = switch (text(n, "load")) {
      case "closed" -> new LoadShape.ClosedLoop(required(n, "concurrency").asInt());
      case "open" -> new LoadShape.OpenLoop(Rate.requestsPerSecond(required(n, "rate").asDouble()),
          required(n, "burstiness").asDouble(),
          n.has("max_concurrency") ? OptionalInt.of(n.get("max_concurrency").asInt()) : OptionalInt.empty());
      default -> throw new IllegalArgumentException("unknown load '" + n.get("load").asText() + "'");
    };
    StopRule stop = switch (text(n, "stop")) {
      case "count" -> new StopRule.Count(required(n, "requests").asInt());
      case "duration" -> new StopRule.Timed(Duration.parse(text(n, "duration")), Duration.parse(text(n, "grace")));
      case "adaptive" -> new StopRule.Adaptive(required(n, "target_half_width").asDouble(), required(n, "min_requests").asInt(),
          required(n, "max_requests").asInt(), Duration.parse(text(n, "max_duration")));
      default -> throw new IllegalArgumentException("unknown stop rule '" + n.get("stop").asText() + "'");
    };
    Double temperature = n.has("temperature") ? n.get("temperature").asDouble() : null;
    WorkloadPlan workload = new WorkloadPlan(required(n, "max_tokens").asInt(), n.path("input_tokens").asInt(),
        n.path("ignore_eos").asBoolean(true), temperature, PromptSource.recorded(text(n, "prompts")),
        Workload.PrefixCache.valueOf(n.path("prefix_cache").asText(Workload.PrefixCache.AVOID.name())));
    return new LevelPlan(text(n, "label"), load, stop, workload, n.path("warmup_requests").asInt(),
        n.path("warmup_max_tokens").asInt(workload.maxTokens()), n.path("seed").asLong());
  }

  private static ServiceLevels slo(JsonNode n) {
    ServiceLevels s = ServiceLevels.none();
    if (n.has("percentile")) s = s.atPercentile(n.get("percentile").asDouble());
    if (n.has("ttft")) s = s.withTtft(Duration.parse(n.get("ttft").asText()));
    if (n.has("tpot")) s = s.withTpot(Duration.parse(n.get("tpot").asText()));
    if (n.has("e2e_latency")) s = s.withE2eLatency(Duration.parse(n.get("e2e_latency").asText()));
    return s;
  }

  private static Result result(JsonNode n) {
    JsonNode e = required(n, "endpoint");
    // The server's startup log and the network baseline are each shard's own to report.
    EndpointInfo endpoint = new EndpointInfo(text(e, "url"), text(e, "model"),
        ApiStyle.valueOf(e.path("api").asText("chat").toUpperCase(Locale.ROOT)), optional(e, "embedded", t -> t),
        optional(e, "server_version", t -> t), Duration.parse(e.path("time_to_ready").asText("PT0S")), List.of());
    if (e.hasNonNull("deployment")) endpoint = endpoint.asDeployment(e.get("deployment").asText());
    return new Result(Instant.parse(text(n, "first_send")), required(n, "requests").asInt(),
        StopReason.valueOf(text(n, "stop_reason")), endpoint);
  }

  private static List<Double> doubles(JsonNode array) {
    List<Double> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asDouble()));
    return values;
  }

  private static JsonNode required(JsonNode n, String field) {
    if (!n.hasNonNull(field)) throw new IllegalArgumentException("'" + field + "' is missing");
    return n.get(field);
  }

  private static String text(JsonNode n, String field) {
    return required(n, field).asText();
  }

  private static <T> Optional<T> optional(JsonNode n, String field, Function<String, T> parse) {
    return n.hasNonNull(field) ? Optional.of(parse.apply(n.get(field).asText())) : Optional.empty();
  }
}
