package dev.llmbench.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.TokenSource;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import dev.llmbench.internal.format.Carriage;
import dev.llmbench.internal.report.RequestRecord;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.server.DeploymentDescription;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A level as an earlier LLMBench run wrote it ({@code C=8.json}), read by {@link ResultJson#readLevel}: its
 * per-request records make every request again, so the level reads exactly as it did, with what the run
 * knew of its warm-up, the client's load, the server's counters and the deployment.
 */
final class RunFolder {

  private static final long MS = 1_000_000;

  /**
   * How a level document read here carries each metric: as {@link ResultJson#CARRIES} says, but for the two
   * judged against an SLO: the document writes its SLO as text ({@code llmbench.slo}) and the level read
   * back has none, so every success counts as good.
   */
  static final Map<Metric, Carriage> CARRIES = withoutSlo();

  private static Map<Metric, Carriage> withoutSlo() {
    Map<Metric, Carriage> t = new EnumMap<>(ResultJson.CARRIES);
    Carriage none = Carriage.not("the SLO is written as text (llmbench.slo): the level read back has none");
    t.replace(Metric.GOODPUT, none);
    t.replace(Metric.SLO_ATTAINMENT, none);
    return t;
  }

  private RunFolder() {}

  /** Whether {@code node} is a level LLMBench wrote: vLLM's names at the top, its own under {@code llmbench}. */
  static boolean isLevel(JsonNode node) {
    return ResultJson.isLevel(node);
  }

  static SweepLevelResult level(JsonNode root, Optional<DeploymentDescription> given) {
    ResultJson.LevelDocument doc = ResultJson.readLevel(root);
    List<RequestTrace> traces = new ArrayList<>();
    for (RequestRecord r : doc.requests()) traces.add(request(r, doc.ttfoWritten()));
    Optional<DeploymentDescription> deployment = given.isPresent() ? given : doc.deployment();
    return Recorded.level(doc.label(), doc.load(), doc.maxTokens(), doc.prompts(), doc.endpoint(), traces, doc.percentiles(),
        doc.stopReason(), doc.serverMetrics().orElse(null), new LevelExtras(doc.warmup(), doc.clientLoad(), deployment));
  }

  /** One request record: offsets in milliseconds from the level's first send, chunk arrivals from its own. */
  private static RequestTrace request(RequestRecord r, boolean ttfoWritten) {
    long start = Math.round(r.startOffsetMs() * MS);
    long scheduled = start - Math.round(r.queueMs() * MS);
    long end = start + Math.round(r.e2eMs() * MS);
    List<Long> chunks = new ArrayList<>();
    r.chunkArrivalsMs().forEach(a -> chunks.add(start + Math.round(a * MS)));
    // No ttfo_ms at all: a record from before TTFO was written, all content. A null one: no content token came.
    long firstContent = r.ttfoMs() != null ? start + Math.round(r.ttfoMs() * MS) : ttfoWritten ? Long.MAX_VALUE : Long.MIN_VALUE;
    if (chunks.isEmpty() && r.ttftMs() != null) {
      chunks.addAll(spread(start + Math.round(r.ttftMs() * MS), firstContent, end, r.tokenChunks(), r.reasoningTokens()));
    }
    boolean usage = TokenSource.SERVER_USAGE.name().equals(r.tokenSource());
    String error = r.error();
    return r.withRecorded(Recorded.request(scheduled, start, Instant.ofEpochMilli(r.startEpochMs()), end, chunks,
        firstContent, usage && error == null ? new Usage(r.promptTokens(), r.outputTokens(), r.reasoningTokens()) : null,
        Map.of(), error == null ? null : Recorded.failure(error), r.finishReason()));
  }

  /**
   * Chunk arrivals for a record written without {@code llmbench.report.chunk-timings}: the first at its TTFT,
   * the first content one at its TTFO, the last at its end; {@code reasoning} chunks (at least one, at most
   * all but one) evenly before the TTFO, the content ones evenly after. TTFT, TTFO, TPOT and E2E read back
   * exactly; the gaps within the reasoning and within the content read back as their means.
   *
   * @param firstContent the TTFO's instant; {@code Long.MIN_VALUE} when every chunk is content,
   *                     {@code Long.MAX_VALUE} when none is
   */
  static List<Long> spread(long first, long firstContent, long end, int count, int reasoning) {
    int n = Math.max(1, count);
    List<Long> at = new ArrayList<>(n);
    if (n == 1 || firstContent <= first || firstContent > end) {
      even(at, first, end, n);
      return at;
    }
    long hint = reasoning > 0 ? reasoning : Math.round((double) (firstContent - first) / (end - first) * (n - 1));
    int k = (int) Math.max(1, Math.min(n - 1, hint));
    for (int i = 0; i < k; i++) at.add(first + Math.round((double) (firstContent - first) * i / k));
    even(at, firstContent, end, n - k);
    return at;
  }

  /** {@code n} instants from {@code from} to {@code to}, evenly; one is at {@code from}. */
  private static void even(List<Long> at, long from, long to, int n) {
    for (int i = 0; i < n; i++) at.add(n == 1 ? from : from + Math.round((double) (to - from) * i / (n - 1)));
  }
}
