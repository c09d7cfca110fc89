package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Everything the embedded engine can be started with. Build with {@link #builder(PerformanceProfile)}; every
 * option but the profile has a default.
 *
 * @param profile      how fast the engine is
 * @param port         port on 127.0.0.1, 0 for a free one (default 0)
 * @param startupDelay how long {@code /health} answers 503 "Loading model" once the server listens (default 0)
 * @param faults       which generation requests misbehave (default none)
 * @param faultSeed    seed of the percentage draws of {@code faults} (default 0)
 * @param mode         how the server behaves as a whole (default {@link ServerMode#NORMAL})
 * @param apiKey       when set, every {@code /v1/...} route requires {@code Authorization: Bearer <apiKey>}, as
 *                     vLLM's {@code --api-key} does; null for none (default)
 * @param keyedRoutes  which routes {@code apiKey} guards: {@link KeyedRoutes#V1} (vLLM's, default) or
 *                     {@link KeyedRoutes#ALL} (a gateway's)
 * @param keepAlive    how long an idle connection is kept open for its next request (default 30 s, as the JDK
 *                     server the engine used before; uvicorn, and so vLLM, uses 5 s)
 * @param prefixCache  automatic prefix caching of prompt blocks, on by default as in vLLM (see {@link PrefixCache})
 * @param coldBatchStall added to the first step at each batch size never run before, bucketed as vLLM's
 *                     CUDA-graph capture sizes (default 0: no cold path)
 * @param slowdown     every step takes this many times the profile's time, e.g. 1.2 for 20% slower (default 1)
 * @param malformedAbove a tool call's arguments or a JSON answer comes out cut short (unparsable) when more than this
 *                     many sequences were in the engine as it arrived: a serving bug that shows only under load; 0 never
 * @param embeddingsRoute whether {@code /v1/embeddings} is served (default true; false answers 404, as a server
 *                     started without embeddings does)
 */
@API(status = INTERNAL)
public record EmbeddedOptions(
    PerformanceProfile profile,
    int port,
    Duration startupDelay,
    FaultPlan faults,
    long faultSeed,
    ServerMode mode,
    String apiKey,
    KeyedRoutes keyedRoutes,
    Duration keepAlive,
    boolean prefixCache,
    Duration coldBatchStall,
    double slowdown,
    int malformedAbove,
    boolean embeddingsRoute) {

  public EmbeddedOptions {
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(faults, "faults");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(keyedRoutes, "keyedRoutes");
    if (port < 0 || port > 65_535) throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
    nonNegative(startupDelay, "startupDelay");
    nonNegative(keepAlive, "keepAlive");
    if (keepAlive.isZero()) throw new IllegalArgumentException("keepAlive must be positive");
    nonNegative(coldBatchStall, "coldBatchStall");
    if (!(slowdown > 0) || Double.isInfinite(slowdown)) {
      throw new IllegalArgumentException("slowdown must be a positive factor such as 1.2, was " + slowdown);
    }
    if (malformedAbove < 0) throw new IllegalArgumentException("malformedAbove must not be negative, was " + malformedAbove);
    if (apiKey != null && apiKey.isBlank()) throw new IllegalArgumentException("apiKey must not be blank; use null for none");
  }

  private static void nonNegative(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) throw new IllegalArgumentException(name + " must not be negative, was " + d);
  }

  public static Builder builder(PerformanceProfile profile) {
    return new Builder(profile);
  }

  /** The defaults for {@code profile}. */
  public static EmbeddedOptions of(PerformanceProfile profile) {
    return builder(profile).build();
  }

  /** The same options for another profile. */
  public EmbeddedOptions withProfile(PerformanceProfile other) {
    return new EmbeddedOptions(other, port, startupDelay, faults, faultSeed, mode, apiKey, keyedRoutes, keepAlive, prefixCache,
        coldBatchStall, slowdown, malformedAbove, embeddingsRoute);
  }

  public Builder toBuilder() {
    return new Builder(profile).port(port).startupDelay(startupDelay).faults(faults).faultSeed(faultSeed).mode(mode)
        .apiKey(apiKey).keyedRoutes(keyedRoutes).keepAlive(keepAlive).prefixCache(prefixCache).coldBatchStall(coldBatchStall).slowdown(slowdown)
        .malformedAbove(malformedAbove).embeddingsRoute(embeddingsRoute);
  }

  /** Never shows the API key, only whether there is one. */
  @Override
  public String toString() {
    return "EmbeddedOptions[profile=" + profile.name() + ", port=" + port + ", startupDelay=" + startupDelay
        + ", faults=" + (faults.isEmpty() ? "none" : faults) + ", faultSeed=" + faultSeed + ", mode=" + mode
        + ", apiKey=" + (apiKey == null ? "none" : "set on " + keyedRoutes) + ", keepAlive=" + keepAlive + ", prefixCache=" + prefixCache
        + ", coldBatchStall=" + coldBatchStall + ", slowdown=" + slowdown + ", malformedAbove=" + malformedAbove
        + ", embeddingsRoute=" + embeddingsRoute + "]";
  }

  public static final class Builder {
    private final PerformanceProfile profile;
    private int port;
    private Duration startupDelay = Duration.ZERO;
    private FaultPlan faults = FaultPlan.NONE;
    private long faultSeed;
    private ServerMode mode = ServerMode.NORMAL;
    private String apiKey;
    private KeyedRoutes keyedRoutes = KeyedRoutes.V1;
    private Duration keepAlive = Duration.ofSeconds(30);
    private boolean prefixCache = true;
    private Duration coldBatchStall = Duration.ZERO;
    private double slowdown = 1.0;
    private int malformedAbove;
    private boolean embeddingsRoute = true;

    private Builder(PerformanceProfile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
    }

    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder startupDelay(Duration startupDelay) {
      this.startupDelay = startupDelay;
      return this;
    }

    public Builder faults(FaultPlan faults) {
      this.faults = faults;
      return this;
    }

    /** @throws IllegalArgumentException naming the bad part of the spec; see {@link FaultPlan#parse} */
    public Builder faults(String spec) {
      return faults(FaultPlan.parse(spec));
    }

    public Builder faultSeed(long faultSeed) {
      this.faultSeed = faultSeed;
      return this;
    }

    public Builder mode(ServerMode mode) {
      this.mode = mode;
      return this;
    }

    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    public Builder keyedRoutes(KeyedRoutes keyedRoutes) {
      this.keyedRoutes = keyedRoutes;
      return this;
    }

    public Builder keepAlive(Duration keepAlive) {
      this.keepAlive = keepAlive;
      return this;
    }

    public Builder prefixCache(boolean prefixCache) {
      this.prefixCache = prefixCache;
      return this;
    }

    public Builder coldBatchStall(Duration coldBatchStall) {
      this.coldBatchStall = coldBatchStall;
      return this;
    }

    public Builder slowdown(double slowdown) {
      this.slowdown = slowdown;
      return this;
    }

    public Builder malformedAbove(int malformedAbove) {
      this.malformedAbove = malformedAbove;
      return this;
    }

    public Builder embeddingsRoute(boolean embeddingsRoute) {
      this.embeddingsRoute = embeddingsRoute;
      return this;
    }

    public EmbeddedOptions build() {
      return new EmbeddedOptions(profile, port, startupDelay, faults, faultSeed, mode, apiKey, keyedRoutes, keepAlive, prefixCache,
          coldBatchStall, slowdown, malformedAbove, embeddingsRoute);
    }
  }
}
