package dev.llmbench.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The embedded engine's misbehaviour on purpose: numbers the generation requests, draws each one's fault from the
 * {@link FaultPlan}, acts out the faults that replace a response, hands the mid-stream ones to the request's
 * {@link EventStream}, and counts what it acted out, so that both sides of a test can count the same faults.
 */
final class FaultInjector {

  private static final byte[] NGINX_502 = ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
      + "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
      .getBytes(StandardCharsets.US_ASCII);

  private final FaultPlan plan;
  private final long seed;
  private final AtomicLong generationRequests = new AtomicLong();
  private final Map<FaultKind, LongAdder> injected = new EnumMap<>(FaultKind.class);

  FaultInjector(FaultPlan plan, long seed) {
    this.plan = plan;
    this.seed = seed;
    for (FaultKind kind : FaultKind.values()) injected.put(kind, new LongAdder());
  }

  /** Numbers the next generation request and draws its fault: null for none. */
  FaultKind draw() {
    return plan.faultFor(generationRequests.incrementAndGet(), seed).orElse(null);
  }

  /**
   * Acts out {@code fault} if it is one that replaces the response (the request was read, and never reaches the
   * engine); returns whether it did.
   */
  boolean actedBeforeResponse(Exchange ex, FaultKind fault) throws IOException {
    if (fault == null || !fault.beforeResponse()) return false;
    injected.get(fault).increment();
    switch (fault) {
      case HTTP500 -> OpenAiResponses.send(ex, 500,
          OpenAiResponses.error("llmbench fault injection: internal server error", "internal_server_error"));
      case HTTP429 -> ex.respond(429, "application/json", OpenAiResponses.JSON.writeValueAsBytes(OpenAiResponses.error(
          "llmbench fault injection: rate limit reached, retry after 1 s", "rate_limit_error")), "Retry-After", "1");
      case HTTP503 -> OpenAiResponses.send(ex, 503,
          OpenAiResponses.error("llmbench fault injection: server overloaded", "unavailable_error"));
      case HTML -> ex.respond(502, "text/html", NGINX_502);
      case DROP -> ex.closeNow();
      case SILENT -> ex.goSilent();
      default -> throw new IllegalStateException(fault + " acts inside a stream");
    }
    return true;
  }

  /**
   * The events of one streamed completion, with {@code fault} (a mid-stream one, or null) acted out in them.
   *
   * @param abandon called when the fault ends generation early
   */
  EventStream stream(Exchange ex, FaultKind fault, boolean chat, Runnable abandon) {
    return new EventStream(ex, fault, chat, abandon, this::count);
  }

  private void count(FaultKind kind) {
    injected.get(kind).increment();
  }

  /** Generation requests numbered so far: the ones that passed the API-key and readiness checks. */
  long generationRequests() {
    return generationRequests.get();
  }

  long injected(FaultKind kind) {
    return injected.get(kind).sum();
  }

  /** Faults acted out so far, by kind, for every kind. */
  Map<FaultKind, Long> injected() {
    Map<FaultKind, Long> counts = new EnumMap<>(FaultKind.class);
    injected.forEach((kind, n) -> counts.put(kind, n.sum()));
    return Collections.unmodifiableMap(counts);
  }

  /** {@code llmbench:faults_injected_total} by kind, for the kinds the plan can inject; nothing without a plan. */
  void appendMetrics(StringBuilder text) {
    if (plan.isEmpty()) return;
    text.append("# TYPE llmbench:faults_injected_total counter\n");
    for (FaultKind kind : plan.kinds()) {
      text.append("llmbench:faults_injected_total{kind=\"").append(kind.spec()).append("\"} ")
          .append(injected(kind)).append('\n');
    }
  }
}
