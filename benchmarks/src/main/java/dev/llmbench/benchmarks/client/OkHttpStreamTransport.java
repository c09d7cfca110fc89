package dev.llmbench.benchmarks.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.ChatStreamParser;
import dev.llmbench.internal.client.NoDelaySocketFactory;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.StreamFailure;
import dev.llmbench.internal.client.StreamRecorder;
import dev.llmbench.internal.client.StreamRequest;
import dev.llmbench.internal.client.StreamTransport;
import dev.llmbench.internal.client.Timeouts;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.apiguardian.api.API;

/**
 * Streams on OkHttp's blocking calls: one thread per stream in flight, reading Okio's buffer into the same
 * byte parser as {@link JdkStreamTransport}. Kept to compare the two (see the client ceiling benchmark);
 * a thread per stream does not bound threads at high concurrency. Never retries: with
 * {@code retryOnConnectionFailure} on, OkHttp resends a POST the server read and dropped.
 */
@API(status = INTERNAL)
public final class OkHttpStreamTransport implements StreamTransport {

  private static final MediaType JSON = MediaType.get("application/json");

  private final Timeouts timeouts;
  private final OkHttpClient http;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "llmbench-okhttp-" + Counter.NEXT.incrementAndGet());
    t.setDaemon(true);
    return t;
  });
  private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();

  public OkHttpStreamTransport(Timeouts timeouts) {
    this.timeouts = timeouts;
    this.http = new OkHttpClient.Builder()
        .connectionPool(new ConnectionPool(1024, 5, TimeUnit.MINUTES))
        .connectTimeout(timeouts.connect())
        .readTimeout(timeouts.idle())
        .writeTimeout(timeouts.idle())
        .callTimeout(timeouts.request())
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .socketFactory(new NoDelaySocketFactory())
        .build();
  }

  @Override
  public CompletableFuture<RequestTrace> send(StreamRequest request) {
    CompletableFuture<RequestTrace> result = new CompletableFuture<>();
    threads.execute(() -> result.complete(run(request)));
    return result;
  }

  private RequestTrace run(StreamRequest request) {
    Headers.Builder headers = new Headers.Builder().add("Accept", request.stream() ? "text/event-stream" : "application/json");
    request.headers().forEach(headers::add);
    Request httpRequest = new Request.Builder().url(request.uri().toString()).headers(headers.build())
        .post(RequestBody.create(request.body(), JSON)).build();
    long start = System.nanoTime();
    StreamRecorder recorder = new StreamRecorder(request.capture(), Math.min(request.scheduledNanos(), start), start,
        request.promptTokensEstimate());
    Call call = http.newCall(httpRequest);
    inFlight.add(call);
    try {
      Response response;
      try {
        response = call.execute();
      } catch (IOException | RuntimeException e) {
        return recorder.finish(System.nanoTime(), 0, beforeResponse(call, e));
      }
      try (response) {
        return read(call, response, recorder);
      }
    } finally {
      inFlight.remove(call);
    }
  }

  private RequestTrace read(Call call, Response response, StreamRecorder recorder) {
    long now = System.nanoTime();
    ResponseBody body = response.body();
    MediaType type = body.contentType();
    String contentType = type == null ? "" : type.toString();
    int status = response.code();
    ChatStreamParser parser = ChatStreamParser.forResponse(recorder, status, contentType, now);
    if (parser == null) {
      String excerpt = "";
      try {
        BufferedSource source = body.source();
        source.request(4096);
        excerpt = Excerpt.of(new String(source.getBuffer().readByteArray(Math.min(4096, source.getBuffer().size())),
            StandardCharsets.UTF_8), 300);
      } catch (IOException e) {
        // The status is the failure; an unreadable body only shortens its message.
      }
      StreamFailure failure = !response.isSuccessful()
          ? new StreamFailure(StreamFailure.Cause.HTTP_STATUS, status, excerpt)
          : new StreamFailure(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE, status, "the answer's Content-Type is "
              + contentType + ", not text/event-stream or application/json: " + excerpt);
      return recorder.finish(System.nanoTime(), 0, failure);
    }
    byte[] buf = new byte[8192];
    BufferedSource source = body.source();
    try {
      int n;
      while ((n = source.read(buf)) != -1) {
        if (!parser.feed(buf, 0, n, System.nanoTime())) break;
      }
      return parser.finish(System.nanoTime());
    } catch (IOException e) {
      return parser.fail(System.nanoTime(), afterResponse(call, status, e));
    }
  }

  private StreamFailure beforeResponse(Call call, Exception e) {
    if (call.isCanceled()) return timeoutOrCancel(e, 0);
    if (e instanceof SocketTimeoutException && String.valueOf(e.getMessage()).startsWith("connect")) {
      return new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0,
          "could not connect within " + Timeouts.format(timeouts.connect()));
    }
    if (e instanceof InterruptedIOException) return timeoutOrCancel(e, 0);
    if (e instanceof ConnectException || e instanceof UnknownHostException || !(e instanceof IOException)) {
      return new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0, "could not connect: " + JdkStreamTransport.describe(e));
    }
    return new StreamFailure(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE, 0,
        "the connection closed before a response; the request may have been read and is not resent: "
            + JdkStreamTransport.describe(e));
  }

  private StreamFailure afterResponse(Call call, int status, IOException e) {
    if (call.isCanceled() || e instanceof InterruptedIOException) return timeoutOrCancel(e, status);
    return new StreamFailure(StreamFailure.Cause.CUT_MID_STREAM, status,
        "the connection failed mid-stream: " + JdkStreamTransport.describe(e));
  }

  /** OkHttp's call timeout cancels the call; its read timeout is a socket timeout. */
  private StreamFailure timeoutOrCancel(Exception e, int status) {
    if (e instanceof SocketTimeoutException) {
      return new StreamFailure(StreamFailure.Cause.IDLE_TIMEOUT, status, timeouts.idleMessage());
    }
    if (e instanceof InterruptedIOException && "timeout".equals(e.getMessage())) {
      return new StreamFailure(StreamFailure.Cause.REQUEST_TIMEOUT, status, timeouts.requestMessage());
    }
    return new StreamFailure(StreamFailure.Cause.CANCELLED, status, "cancelled while in flight");
  }

  @Override
  public void cancelAll() {
    inFlight.forEach(Call::cancel);
  }

  @Override
  public int inFlight() {
    return inFlight.size();
  }

  @Override
  public void close() {
    cancelAll();
    threads.shutdown();
    http.connectionPool().evictAll();
  }

  private static final class Counter {
    static final AtomicInteger NEXT = new AtomicInteger();
  }
}
