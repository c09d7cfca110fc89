package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.engine.FaultPlan;
import dev.llmbench.engine.KeyedRoutes;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.engine.ServerMode;
import dev.llmbench.internal.client.ConnectionSettings;
import dev.llmbench.internal.workload.LengthDistribution;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/** Every setting LLMBench reads, in the order the settings page (docs/settings.md) lists them. */
@API(status = INTERNAL)
public final class SettingKeys {

  private SettingKeys() {}

  public static final Setting<URI> BASE_URL = new Setting<>("llmbench.base-url", "", "embedded engine",
      "server root, e.g. `http://gpu-node-1:8000`; unset for the embedded engine; credentials in it "
          + "(`https://user:pass@gateway/`) go as Basic authentication and are never printed", SettingKeys::baseUrl);
  public static final Setting<Boolean> REQUIRE_SERVER = new Setting<>("llmbench.require-server", "false", null,
      "`true` fails a run that has no server before any load, instead of measuring the embedded engine (a simulator); "
          + "set it once in CI (`LLMBENCH_REQUIRE_SERVER=true`)", SettingKeys::bool);
  public static final Setting<String> MODEL = new Setting<>("llmbench.model", "", "first id of `/v1/models`",
      "model id sent in requests", t -> t);
  public static final Setting<ApiStyle> API = new Setting<>("llmbench.api", "chat", null,
      "`chat` (`/v1/chat/completions`) or `completions` (`/v1/completions`)", SettingKeys::api);
  public static final Setting<String> API_KEY_ENV = new Setting<>("llmbench.api-key-env", "OPENAI_API_KEY", null,
      "environment variable holding the bearer token (never printed)", t -> t);
  public static final Setting<List<ConnectionSettings.Header>> HEADERS = new Setting<>("llmbench.headers", "", "none",
      "extra request headers for a gateway, `Name=value` pairs separated by commas; `${VAR}` in a value reads the "
          + "environment variable VAR, e.g. `api-key=${AZURE_OPENAI_KEY}` (values never printed)",
      ConnectionSettings::parseHeaders);
  public static final Setting<Path> TLS_TRUST = new Setting<>("llmbench.tls.trust", "", "the JVM's CAs",
      "certificates an https server must chain to: a PEM file (`.pem`, `.crt`) or a trust store (`.p12`, `.jks`)",
      Path::of);
  public static final Setting<String> TLS_TRUST_PASSWORD_ENV = new Setting<>("llmbench.tls.trust-password-env", "", "none",
      "environment variable holding the trust store's password (never printed)", t -> t);
  public static final Setting<ConnectionSettings.ProxySetting> PROXY = new Setting<>("llmbench.proxy", "env", null,
      "`env` (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, as curl reads them), `none`, or a proxy URL such as "
          + "`http://proxy:3128`; loopback addresses never go through a proxy", ConnectionSettings.ProxySetting::parse);
  public static final Setting<Duration> READY_TIMEOUT = new Setting<>("llmbench.ready.timeout", "20m", null,
      "readiness limit: `/health` 200 **and** a 1-token completion (a 1-input embeddings request for `@Embeddings` sweeps)", SettingKeys::positive);
  public static final Setting<Duration> READY_POLL_INTERVAL = new Setting<>("llmbench.ready.poll-interval", "2s", null,
      "time between readiness probes", SettingKeys::positive);
  public static final Setting<Duration> READY_PROGRESS_INTERVAL = new Setting<>("llmbench.ready.progress-interval", "30s",
      null, "time between progress lines while waiting", SettingKeys::positive);
  public static final Setting<Duration> REQUEST_TIMEOUT = new Setting<>("llmbench.request-timeout", "10m", null,
      "the longest one whole request may take", SettingKeys::positive);
  public static final Setting<Duration> IDLE_TIMEOUT = new Setting<>("llmbench.idle-timeout", "2m", null,
      "the longest gap between two bytes of a response", SettingKeys::positive);
  public static final Setting<Duration> KEEP_ALIVE = new Setting<>("llmbench.keep-alive",
      ConnectionSettings.DEFAULT_KEEP_ALIVE.toSeconds() + "s", null,
      "the longest a pooled connection may sit idle and still carry a request; keep it below the server's keep-alive "
          + "timeout (5 s in vLLM, SGLang and llama-server; a `Keep-Alive: timeout=N` answer lowers it to N - 1 s); "
          + "`0s` for a new connection per request", SettingKeys::notNegative);
  public static final Setting<Duration> PROGRESS_INTERVAL = new Setting<>("llmbench.progress-interval", "10s", null,
      "time between progress lines while a level runs", SettingKeys::positive);
  public static final Setting<ProgressMode> PROGRESS = new Setting<>("llmbench.progress", "auto", null,
      "`auto` (one line redrawn in place on an interactive terminal, else `lines`), `redraw`, `lines` (one at each "
          + "interval, for logs and CI) or `off`", ProgressMode::parse);
  public static final Setting<PerformanceProfile> EMBEDDED_PROFILE = new Setting<>("llmbench.embedded.profile",
      "gqa-dense", null, "embedded engine's profile: " + String.join(", ", profileNames()),
      SettingKeys::profile);
  public static final Setting<Duration> EMBEDDED_STARTUP_DELAY = new Setting<>("llmbench.embedded.startup-delay", "0s",
      null, "the embedded engine answers 503 this long once it listens", SettingKeys::notNegative);
  public static final Setting<FaultPlan> EMBEDDED_FAULTS = new Setting<>("llmbench.embedded.faults", "", "none",
      "the embedded engine fails on purpose, e.g. `http500:5%,reset:2%,drop:every5` (see [failures.md](failures.md))",
      FaultPlan::parse);
  public static final Setting<Long> EMBEDDED_FAULT_SEED = new Setting<>("llmbench.embedded.fault-seed", "0", null,
      "seed of the fault draws: the same seed fails the same request numbers", SettingKeys::wholeNumber);
  public static final Setting<ServerMode> EMBEDDED_MODE = new Setting<>("llmbench.embedded.mode", "normal", null,
      "`normal`, `never-ready` (503 for ever) or `not-found` (404 on every route)", ServerMode::parse);
  public static final Setting<String> EMBEDDED_API_KEY = new Setting<>("llmbench.embedded.api-key", "", "none",
      "a key the embedded engine requires on `/v1/...`, as `vllm serve --api-key` does", t -> t);
  public static final Setting<KeyedRoutes> EMBEDDED_API_KEY_ROUTES = new Setting<>("llmbench.embedded.api-key-routes", "v1",
      null, "routes that key guards: `v1` (vLLM's: `/v1/...` only, `/health` open) or `all` (a gateway's: every route, "
          + "403 for a wrong key)", KeyedRoutes::parse);
  public static final Setting<Boolean> EMBEDDED_PREFIX_CACHE = new Setting<>("llmbench.embedded.prefix-cache", "true",
      null, "the embedded engine caches prompt prefixes, as vLLM does", SettingKeys::bool);
  public static final Setting<Duration> EMBEDDED_COLD_BATCH_STALL = new Setting<>("llmbench.embedded.cold-batch-stall",
      "0s", null, "extra time of the embedded engine's first step at each new batch size", SettingKeys::notNegative);
  public static final Setting<Double> EMBEDDED_SLOWDOWN = new Setting<>("llmbench.embedded.slowdown", "1", null,
      "every step of the embedded engine takes this many times its profile's time", SettingKeys::positiveNumber);
  public static final Setting<Integer> EMBEDDED_MALFORMED_ABOVE = new Setting<>("llmbench.embedded.malformed-above", "0",
      "never", "the embedded engine cuts tool-call arguments and JSON answers short when more than this many sequences are "
      + "in it as a request arrives", SettingKeys::notNegativeInt);
  public static final Setting<Boolean> EMBEDDED_EMBEDDINGS = new Setting<>("llmbench.embedded.embeddings", "true", null,
      "the embedded engine serves `/v1/embeddings`", SettingKeys::bool);
  public static final Setting<Path> SERVER_LOG_FILE = new Setting<>("llmbench.server.log-file", "", "none",
      "a server log to follow for the startup phases, for a server started elsewhere", Path::of);
  public static final Setting<Integer> GPU_COUNT = new Setting<>("llmbench.gpu-count", "", "`@DeploymentFacts(gpuCount)`",
      "GPUs the deployment holds, charged at `llmbench.gpu-hour-price` for dollars per million tokens",
      SettingKeys::notNegativeInt);
  public static final Setting<Double> GPU_HOUR_PRICE = new Setting<>("llmbench.gpu-hour-price", "",
      "`@DeploymentFacts(gpuHourPrice)`", "dollars per GPU-hour, e.g. `2.5`: with `llmbench.gpu-count`, each level's "
          + "dollars per million output and input tokens", SettingKeys::positiveNumber);
  public static final Setting<Integer> NETWORK_SAMPLES = new Setting<>("llmbench.network.samples", "5", null,
      "round trips of the health route timed once an endpoint is ready, reported beside TTFT; `0` for none",
      SettingKeys::notNegativeInt);
  public static final Setting<List<Integer>> SWEEP_LEVELS = new Setting<>("llmbench.sweep.levels", "", "the annotation's",
      "concurrency levels of every `@ConcurrencySweep`, e.g. `1,4,16`", t -> list(t, Integer::parseInt, "1,4,16"));
  public static final Setting<List<Double>> SWEEP_RATES = new Setting<>("llmbench.sweep.rates", "", "the annotation's",
      "request rates of every `@RateSweep`, e.g. `0.5,2,8`", t -> list(t, Double::parseDouble, "0.5,2,8"));
  public static final Setting<Integer> SWEEP_REQUESTS = new Setting<>("llmbench.sweep.requests", "", "the annotation's",
      "requests per level of every sweep (`@Measurement(requests)`)", SettingKeys::positiveInt);
  public static final Setting<Integer> SWEEP_ROUNDS = new Setting<>("llmbench.sweep.rounds", "", "the annotation's",
      "whole rounds of C requests per level of every `@ConcurrencySweep` (`@Measurement(rounds)`)",
      SettingKeys::positiveInt);
  public static final Setting<Double> SWEEP_TARGET_CI_HALF_WIDTH = new Setting<>("llmbench.sweep.target-ci-half-width",
      "0.05", null, "a closed-loop level of automatic size (no `requests`, `rounds`, `duration` or `targetCiHalfWidth` in "
          + "`@Measurement`) sends its count, then goes on until its output throughput's 95% interval is within this "
          + "relative half-width (0.05: ±5%), up to 1,000 requests or 1 minute; by default on real servers only, when set on "
          + "the embedded engine too; `0` for the count alone", t -> number(t, Double::valueOf, v -> v >= 0 && v < 1,
              "it must be a fraction from 0 up to 1, e.g. 0.05 for ±5%, or 0 for the count alone", "write a fraction such as 0.05"));
  public static final Setting<LengthDistribution> WORKLOAD_INPUT_LENGTH = new Setting<>("llmbench.workload.input-length", "",
      "the annotation's", "synthetic prompt lengths of every sweep (`@Workload(inputLength)`), e.g. "
          + "`normal(480,240,min=1,max=2048)`; see [workloads.md](workloads.md)", LengthDistribution::parse);
  public static final Setting<LengthDistribution> WORKLOAD_OUTPUT_LENGTH = new Setting<>("llmbench.workload.output-length", "",
      "the annotation's", "`max_tokens` of every sweep's requests drawn from a distribution (`@Workload(outputLength)`), "
          + "e.g. `lognormal(256,180,max=1024)`", LengthDistribution::parse);
  public static final Setting<Boolean> SLO_ABORT_ON_FAIL = new Setting<>("llmbench.slo.abort-on-fail", "", "the annotation's",
      "`true` stops each level with an `@Slo` once that SLO can no longer be met (`@Slo(abortOnFail)`), `false` never",
      SettingKeys::bool);
  public static final Setting<Path> REPORT_DIR = new Setting<>("llmbench.report.dir", "target/llmbench", null,
      "folder of the per-sweep reports (JSON, CSV, charts, `index.html`)", Path::of);
  public static final Setting<Boolean> REPORT_CHUNK_TIMINGS = new Setting<>("llmbench.report.chunk-timings", "false", null,
      "`true` keeps every token chunk's arrival time per request in the level's JSON (`chunk_arrivals_ms`, vLLM's "
          + "`itls`); by default it holds per-request summaries, so its size does not grow with tokens", SettingKeys::bool);
  public static final Setting<Path> ALLURE_CONFIG = new Setting<>("llmbench.allure.config", "", "bundled categories",
      "folder with your own Allure `categories.json`", Path::of);
  public static final Setting<Integer> SHARD_COUNT = new Setting<>("llmbench.shard.count", "1", null,
      "shards that run the suite together, each its share of every level ([sharding.md](sharding.md))",
      SettingKeys::positiveInt);
  public static final Setting<Integer> SHARD_INDEX = new Setting<>("llmbench.shard.index", "",
      "`JOB_COMPLETION_INDEX`, else `0`", "this shard, from 0 to count - 1 (a Kubernetes Indexed Job sets `JOB_COMPLETION_INDEX`)",
      SettingKeys::notNegativeInt);
  public static final Setting<Instant> SHARD_START = new Setting<>("llmbench.shard.start", "", "none",
      "ISO-8601 instant from which every shard measures its first level, warmed up, e.g. `2026-12-01T10:00:00Z`", SettingKeys::instant);
  public static final Setting<Duration> SHARD_SLOT = new Setting<>("llmbench.shard.slot", "", "none",
      "time each level may take, with its report and the next warm-up: level k is measured from start + k x slot", SettingKeys::positive);

  /**
   * The machinery's settings, in the order of the settings table (docs/settings.md); each feature declares its own
   * in its package ({@code internal.spi.Feature#settings}), listed after these.
   */
  public static List<Setting<?>> all() {
    return List.of(BASE_URL, REQUIRE_SERVER, MODEL, API, API_KEY_ENV, HEADERS, TLS_TRUST, TLS_TRUST_PASSWORD_ENV, PROXY, READY_TIMEOUT, READY_POLL_INTERVAL, READY_PROGRESS_INTERVAL,
        REQUEST_TIMEOUT, IDLE_TIMEOUT, KEEP_ALIVE, PROGRESS_INTERVAL, PROGRESS, EMBEDDED_PROFILE, EMBEDDED_STARTUP_DELAY, EMBEDDED_FAULTS,
        EMBEDDED_FAULT_SEED, EMBEDDED_MODE, EMBEDDED_API_KEY, EMBEDDED_API_KEY_ROUTES, EMBEDDED_PREFIX_CACHE, EMBEDDED_COLD_BATCH_STALL,
        EMBEDDED_SLOWDOWN, EMBEDDED_MALFORMED_ABOVE, EMBEDDED_EMBEDDINGS, SERVER_LOG_FILE, GPU_COUNT, GPU_HOUR_PRICE,
        NETWORK_SAMPLES, SWEEP_LEVELS, SWEEP_RATES, SWEEP_REQUESTS, SWEEP_ROUNDS, SWEEP_TARGET_CI_HALF_WIDTH,
        WORKLOAD_INPUT_LENGTH, WORKLOAD_OUTPUT_LENGTH, SLO_ABORT_ON_FAIL,
        REPORT_DIR, REPORT_CHUNK_TIMINGS, ALLURE_CONFIG, SHARD_COUNT, SHARD_INDEX,
        SHARD_START, SHARD_SLOT);
  }

  static URI baseUrl(String text) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL; write it like http://127.0.0.1:8000", e);
    }
    if (uri.getScheme() == null || uri.getHost() == null || !uri.getScheme().matches("https?")) {
      throw new IllegalArgumentException("it needs an http or https scheme and a host; write it like http://127.0.0.1:8000");
    }
    if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
      throw new IllegalArgumentException("port " + uri.getPort() + " is outside 1-65535");
    }
    return uri;
  }

  /** Comma-separated http(s) URLs, each read as {@link #baseUrl} reads one: a parser the features' settings share. */
  public static List<URI> urls(String text) {
    List<URI> urls = Stream.of(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(u -> {
      try {
        return baseUrl(u);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'" + u + "': " + e.getMessage().replace("127.0.0.1:8000", "127.0.0.1:9400/metrics"));
      }
    }).toList();
    if (urls.isEmpty()) throw new IllegalArgumentException("it lists no URL; write e.g. http://gpu-node-1:9400/metrics");
    return urls;
  }

  static ApiStyle api(String text) {
    try {
      return ApiStyle.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("use chat or completions");
    }
  }

  static PerformanceProfile profile(String text) {
    return PerformanceProfile.named(text).orElseThrow(() -> new IllegalArgumentException(
        "unknown embedded profile; choose one of " + profileNames()));
  }

  static List<String> profileNames() {
    return PerformanceProfile.builtIn().keySet().stream().sorted().toList();
  }

  /** A duration above zero: a parser the features' own settings share too. */
  public static Duration positive(String text) {
    Duration d = DurationParser.parse(text);
    if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("it must be positive");
    return d;
  }

  /** A duration of zero or more: a parser the features' own settings share too. */
  public static Duration notNegative(String text) {
    Duration d = DurationParser.parse(text);
    if (d.isNegative()) throw new IllegalArgumentException("it must not be negative");
    return d;
  }

  static Integer positiveInt(String text) {
    return number(text, Integer::valueOf, v -> v >= 1, "it must be a positive whole number", "it is not a whole number");
  }

  static Long wholeNumber(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("it is not a whole number");
    }
  }

  static Double positiveNumber(String text) {
    return number(text, Double::valueOf, v -> v > 0 && !v.isInfinite(), "it must be a positive number such as 1.2",
        "it is not a number; write e.g. 1.2");
  }

  /** {@code true} or {@code false}, any case: a parser the features' own settings share too. */
  public static Boolean bool(String text) {
    if (text.equalsIgnoreCase("true")) return true;
    if (text.equalsIgnoreCase("false")) return false;
    throw new IllegalArgumentException("write true or false");
  }

  /** A fraction in [0, 1), or {@code off} (NaN): report regressions without failing (a baseline's gate). */
  public static Double regression(String text) {
    if (text.equalsIgnoreCase("off")) return Double.NaN;
    return number(text, Double::valueOf, v -> v >= 0 && v < 1,
        "it must be a fraction from 0 up to 1, e.g. 0.1 for 10%, or off", "write a fraction such as 0.1 for 10%, or off");
  }

  static Integer notNegativeInt(String text) {
    return number(text, Integer::valueOf, v -> v >= 0, "it must be 0 or a positive whole number", "it is not a whole number");
  }

  /** {@code text} parsed as a number that {@code inRange} accepts, else the complaint that fits. */
  private static <N extends Number> N number(String text, Function<String, N> parse, Predicate<N> inRange, String outOfRange,
      String notANumber) {
    N v;
    try {
      v = parse.apply(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(notANumber);
    }
    if (!inRange.test(v)) throw new IllegalArgumentException(outOfRange);
    return v;
  }

  static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("it is not an ISO-8601 instant in UTC; write e.g. 2026-12-01T10:00:00Z "
          + "(date -u -d '+2 min' +%FT%TZ prints one)");
    }
  }

  static <T> List<T> list(String text, Function<String, T> parse, String example) {
    try {
      List<T> values = Stream.of(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(parse).toList();
      if (values.isEmpty()) throw new IllegalArgumentException("it lists no value; write e.g. " + example);
      return values;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("it is not a comma-separated list of numbers; write e.g. " + example);
    }
  }
}
