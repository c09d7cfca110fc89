package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ApiStyle;
import dev.llmbench.internal.embedded.PerformanceProfile;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/** Every setting LLMBench reads, in the order the README's settings table lists them. */
@API(status = INTERNAL)
public final class SettingKeys {

  private SettingKeys() {}

  public static final Setting<URI> BASE_URL = new Setting<>("llmbench.base-url", "", "embedded engine",
      "server root, e.g. `http://gpu-node-1:8000`; unset for the embedded engine", SettingKeys::baseUrl);
  public static final Setting<String> MODEL = new Setting<>("llmbench.model", "", "first id of `/v1/models`",
      "model id sent in requests", t -> t);
  public static final Setting<ApiStyle> API = new Setting<>("llmbench.api", "chat", null,
      "`chat` (`/v1/chat/completions`) or `completions` (`/v1/completions`)", SettingKeys::api);
  public static final Setting<String> API_KEY_ENV = new Setting<>("llmbench.api-key-env", "OPENAI_API_KEY", null,
      "environment variable holding the bearer token (never printed)", t -> t);
  public static final Setting<Duration> READY_TIMEOUT = new Setting<>("llmbench.ready.timeout", "20m", null,
      "readiness limit: `/health` 200 **and** a 1-token completion", SettingKeys::positive);
  public static final Setting<Duration> READY_POLL_INTERVAL = new Setting<>("llmbench.ready.poll-interval", "2s", null,
      "time between readiness probes", SettingKeys::positive);
  public static final Setting<Duration> READY_PROGRESS_INTERVAL = new Setting<>("llmbench.ready.progress-interval", "30s",
      null, "time between progress lines while waiting", SettingKeys::positive);
  public static final Setting<Duration> REQUEST_TIMEOUT = new Setting<>("llmbench.request-timeout", "10m", null,
      "the longest one whole request may take", SettingKeys::positive);
  public static final Setting<Duration> IDLE_TIMEOUT = new Setting<>("llmbench.idle-timeout", "2m", null,
      "the longest gap between two bytes of a response", SettingKeys::positive);
  public static final Setting<PerformanceProfile> EMBEDDED_PROFILE = new Setting<>("llmbench.embedded.profile",
      "gqa-dense", null, "embedded engine's profile: " + String.join(", ", profileNames()),
      SettingKeys::profile);
  public static final Setting<Duration> EMBEDDED_STARTUP_DELAY = new Setting<>("llmbench.embedded.startup-delay", "0s",
      null, "the embedded engine answers 503 this long", SettingKeys::notNegative);
  public static final Setting<List<Integer>> SWEEP_LEVELS = new Setting<>("llmbench.sweep.levels", "", "the annotation's",
      "concurrency levels of every `@ConcurrencySweep`, e.g. `1,4,16`", t -> list(t, Integer::parseInt, "1,4,16"));
  public static final Setting<List<Double>> SWEEP_RATES = new Setting<>("llmbench.sweep.rates", "", "the annotation's",
      "request rates of every `@RateSweep`, e.g. `0.5,2,8`", t -> list(t, Double::parseDouble, "0.5,2,8"));
  public static final Setting<Integer> SWEEP_REQUESTS = new Setting<>("llmbench.sweep.requests", "", "the annotation's",
      "requests per level of every sweep (`@Measurement(requests)`)", SettingKeys::positiveInt);
  public static final Setting<Integer> SWEEP_ROUNDS = new Setting<>("llmbench.sweep.rounds", "", "the annotation's",
      "whole rounds of C requests per level of every `@ConcurrencySweep` (`@Measurement(rounds)`)",
      SettingKeys::positiveInt);
  public static final Setting<Path> REPORT_DIR = new Setting<>("llmbench.report.dir", "target/llmbench", null,
      "folder of the per-sweep reports (JSON, CSV, charts, `index.html`)", Path::of);
  public static final Setting<Path> ALLURE_CONFIG = new Setting<>("llmbench.allure.config", "", "bundled categories",
      "folder with your own Allure `categories.json`", Path::of);

  /** Every setting, in README order. */
  public static List<Setting<?>> all() {
    return List.of(BASE_URL, MODEL, API, API_KEY_ENV, READY_TIMEOUT, READY_POLL_INTERVAL, READY_PROGRESS_INTERVAL,
        REQUEST_TIMEOUT, IDLE_TIMEOUT, EMBEDDED_PROFILE, EMBEDDED_STARTUP_DELAY, SWEEP_LEVELS, SWEEP_RATES,
        SWEEP_REQUESTS, SWEEP_ROUNDS, REPORT_DIR, ALLURE_CONFIG);
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
    if (uri.getUserInfo() != null) {
      throw new IllegalArgumentException("credentials in the URL would be printed in reports; put the key in the "
          + "environment variable named by llmbench.api-key-env instead");
    }
    return uri;
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

  static Duration positive(String text) {
    Duration d = DurationParser.parse(text);
    if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("it must be positive");
    return d;
  }

  static Duration notNegative(String text) {
    Duration d = DurationParser.parse(text);
    if (d.isNegative()) throw new IllegalArgumentException("it must not be negative");
    return d;
  }

  static Integer positiveInt(String text) {
    try {
      int v = Integer.parseInt(text);
      if (v < 1) throw new IllegalArgumentException("it must be a positive whole number");
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("it is not a whole number");
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
