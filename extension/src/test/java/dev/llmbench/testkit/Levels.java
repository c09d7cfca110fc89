package dev.llmbench.testkit;

import dev.llmbench.EndpointInfo;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.GpuTelemetry;
import dev.llmbench.server.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * Measured levels built from hand-made traces, for tests of statistics, reports and analysis:
 * {@code Levels.closed(4).requests(8, i -> Traces.at(i * 10).content(20, 30).usage(5, 2).build()).build()}.
 */
public final class Levels {

  /** The endpoint every built level reports. */
  public static final EndpointInfo ENDPOINT = new EndpointInfo("http://127.0.0.1:1/", "m", ApiStyle.CHAT, Optional.empty(),
      Optional.empty(), Duration.ZERO, List.of());

  private final LoadShape load;
  private String label;
  private final List<RequestTrace> traces = new ArrayList<>();
  private ServiceLevels slo = ServiceLevels.none();
  private List<Double> percentiles = List.of(50.0);
  private int maxTokens = 16;
  private int inputTokens;
  private ServerMetrics server;
  private EndpointInfo endpoint = ENDPOINT;
  private WarmupReport warmup;
  private ClientLoad clientLoad;
  private GpuTelemetry gpus;

  private Levels(LoadShape load, String label) {
    this.load = load;
    this.label = label;
  }

  public static Levels closed(int concurrency) {
    return new Levels(new LoadShape.ClosedLoop(concurrency), "C=" + concurrency);
  }

  public static Levels of(LoadShape load, String label) {
    return new Levels(load, label);
  }

  public static Levels open(double rate) {
    return new Levels(new LoadShape.OpenLoop(Rate.requestsPerSecond(rate), 1, OptionalInt.empty()), "rate=" + rate + "/s");
  }

  public Levels label(String label) {
    this.label = label;
    return this;
  }

  /** {@code n} requests, request {@code i} built by {@code trace}. */
  public Levels requests(int n, IntFunction<RequestTrace> trace) {
    for (int i = 0; i < n; i++) traces.add(trace.apply(i));
    return this;
  }

  public Levels request(RequestTrace trace) {
    traces.add(trace);
    return this;
  }

  public Levels slo(ServiceLevels slo) {
    this.slo = slo;
    return this;
  }

  public Levels percentiles(Double... percentiles) {
    this.percentiles = List.of(percentiles);
    return this;
  }

  public Levels maxTokens(int maxTokens) {
    this.maxTokens = maxTokens;
    return this;
  }

  public Levels inputTokens(int inputTokens) {
    this.inputTokens = inputTokens;
    return this;
  }

  /** Measured as the deployment {@code name}, as a sweep over several names its levels: {@code C=4 · name}. */
  public Levels deployment(String name) {
    this.endpoint = ENDPOINT.asDeployment(name);
    this.label = label + " · " + name;
    return this;
  }

  /** Measured on the embedded engine (the simulator), not a real server. */
  public Levels embedded() {
    this.endpoint = new EndpointInfo(ENDPOINT.url(), ENDPOINT.model(), ENDPOINT.api(), Optional.of("instant"), Optional.empty(),
        Duration.ZERO, List.of());
    return this;
  }

  public Levels server(ServerMetrics server) {
    this.server = server;
    return this;
  }

  public Levels warmup(WarmupReport warmup) {
    this.warmup = warmup;
    return this;
  }

  public Levels clientLoad(ClientLoad clientLoad) {
    this.clientLoad = clientLoad;
    return this;
  }

  public Levels gpus(GpuTelemetry gpus) {
    this.gpus = gpus;
    return this;
  }

  public MeasuredLevel build() {
    PromptSource prompts = inputTokens > 0 ? PromptSource.synthetic(inputTokens, 1) : PromptSource.builtIn(1);
    LevelPlan plan = new LevelPlan(label, load, new StopRule.Count(Math.max(1, traces.size())),
        new WorkloadPlan(maxTokens, inputTokens, true, null, prompts), 0, 1);
    return new MeasuredLevel(plan, endpoint, traces.stream().map(RequestMetrics::of).toList(), slo, percentiles,
        StopReason.REQUEST_COUNT, server, List.of(), new LevelExtras(Optional.ofNullable(warmup), Optional.ofNullable(clientLoad),
        Optional.empty(), gpus == null ? List.of() : List.of(gpus)));
  }
}
