package dev.llmbench.benchmarks.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.internal.client.ChatStreamParser;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.StreamRecorder;
import dev.llmbench.internal.client.TextCapture;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSources;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Nanoseconds of parsing per SSE event of a fast-sse body (1,000 content chunks, 1,003 JSON events), from
 * bytes in memory to a finished trace: per-request setup included, socket and HTTP framing excluded.
 * {@code readSize} is the size of the reads the body arrives in; {@code shortcut} false reads every event
 * with Jackson, as before the repeated-envelope shortcut; {@code text} is the chunks' text, and
 * {@code usage-every-chunk} English with usage on every chunk, which no chunk's shortcut can take.
 * {@code okHttpSseTreePerEvent} is the path LLMBench used before: okhttp-sse (a String per line and per
 * event) and a Jackson tree per event.
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar ParserBenchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ParserBenchmark {

  private static final int CHUNKS = 1000;
  private static final int EVENTS = 1003;

  @Param({"16384", "256"})
  public int readSize;

  @Param({"EXCERPT"})
  public String capture;

  @Param({"true", "false"})
  public boolean shortcut;

  /** The chunks' text: short English words, Chinese and escaped code, or English with usage on every chunk. */
  @Param({"ascii", "chinese-and-code", "usage-every-chunk"})
  public String text;

  private byte[] body;
  private TextCapture textCapture;
  private final ObjectMapper json = new ObjectMapper();
  private final Request request = new Request.Builder().url("http://127.0.0.1/v1/chat/completions").build();

  @Setup
  public void setUp() {
    if (FastSseBody.events(CHUNKS) != EVENTS) throw new IllegalStateException("EVENTS is wrong");
    body = switch (text) {
      case "chinese-and-code" -> FastSseBody.of(CHUNKS, FastSseBody.CHINESE_AND_CODE);
      case "usage-every-chunk" -> FastSseBody.of(CHUNKS, FastSseBody.WORDS, true);
      default -> FastSseBody.of(CHUNKS);
    };
    textCapture = switch (capture) {
      case "NONE" -> TextCapture.NONE;
      case "FULL" -> TextCapture.FULL;
      default -> TextCapture.EXCERPT;
    };
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public RequestTrace bytesToTrace() {
    long now = System.nanoTime();
    StreamRecorder recorder = new StreamRecorder(textCapture, now, now, 16);
    recorder.headers(200, now, true);
    ChatStreamParser parser = shortcut ? ChatStreamParser.eventStream(recorder)
        : ChatStreamParser.eventStreamWithoutShortcut(recorder);
    for (int from = 0; from < body.length; from += readSize) {
      parser.feed(body, from, Math.min(body.length, from + readSize), System.nanoTime());
    }
    RequestTrace trace = parser.finish(System.nanoTime());
    if (trace.events() != EVENTS || !trace.succeeded()) throw new IllegalStateException(trace.toString());
    return trace;
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public Object okHttpSseTreePerEvent() {
    TreeSseCollector collector = new TreeSseCollector(json);
    Response response = new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(200).message("OK")
        .body(ResponseBody.create(body, MediaType.get("text/event-stream"))).build();
    EventSources.processResponse(response, collector);
    if (collector.chunks.size() != EVENTS - 1 || collector.failure != null || !collector.done) {
      throw new IllegalStateException(collector.chunks.size() + " chunks, failure " + collector.failure);
    }
    return collector;
  }
}
