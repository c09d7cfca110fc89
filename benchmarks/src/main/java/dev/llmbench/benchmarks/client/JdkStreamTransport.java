package dev.llmbench.benchmarks.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.ChatStreamParser;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.StreamFailure;
import dev.llmbench.internal.client.StreamRecorder;
import dev.llmbench.internal.client.StreamRequest;
import dev.llmbench.internal.client.StreamTransport;
import dev.llmbench.internal.client.StreamWatchdog;
import dev.llmbench.internal.client.Timeouts;
import dev.llmbench.internal.format.Excerpt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;

/**
 * Streams on the JDK's non-blocking {@link HttpClient}: one selector thread and a fixed pool of
 * {@code threads} parse every stream in flight, however many there are; each stream costs a few KB of heap.
 * HTTP/1.1 only (servers stream SSE over it, and the JDK's h2c upgrade attempt would cost a round trip).
 *
 * <p>The JDK never resends a POST: it retries a request only when the connection could not be opened
 * (the request never left) or, for GET and HEAD, when a pooled connection turned out closed. Idle
 * pooled connections that the server closes are dropped from the pool as soon as their close arrives.
 */
@API(status = INTERNAL)
public final class JdkStreamTransport implements StreamTransport {

  private static final int ERROR_EXCERPT_BYTES = 4096;
  private static final long ERROR_BODY_LIMIT = 1 << 20;

  private final Timeouts timeouts;
  private final ExecutorService executor;
  private final HttpClient http;
  private final StreamWatchdog watchdog;

  /**
   * @param threads how many threads parse responses; streams in flight share them
   */
  public JdkStreamTransport(Timeouts timeouts, int threads) {
    this.timeouts = timeouts;
    this.executor = Executors.newFixedThreadPool(threads, daemon("llmbench-http"));
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .executor(executor)
        .connectTimeout(timeouts.connect())
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    this.watchdog = new StreamWatchdog("llmbench-http-timeouts", StreamWatchdog.tickFor(timeouts));
  }

  /** As many parsing threads as cores, at least 2. */
  public JdkStreamTransport(Timeouts timeouts) {
    this(timeouts, Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  @Override
  public CompletableFuture<RequestTrace> send(StreamRequest request) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
        .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()))
        .header("Content-Type", "application/json")
        .header("Accept", request.stream() ? "text/event-stream" : "application/json");
    request.headers().forEach(builder::header);
    HttpRequest httpRequest = builder.build();
    Exchange exchange = new Exchange(request, System.nanoTime());
    watchdog.add(exchange);
    try {
      CompletableFuture<HttpResponse<RequestTrace>> response = http.sendAsync(httpRequest, exchange);
      exchange.response(response);
      response.whenComplete((r, failure) -> {
        if (failure != null) exchange.failedBeforeBody(failure);
      });
    } catch (RuntimeException e) {
      exchange.failedBeforeBody(e);
    }
    return exchange.result;
  }

  @Override
  public void cancelAll() {
    watchdog.forEach(w -> ((Exchange) w).abort(
        new StreamFailure(StreamFailure.Cause.CANCELLED, 0, "cancelled while in flight"), System.nanoTime()));
  }

  @Override
  public int inFlight() {
    return watchdog.size();
  }

  @Override
  public void close() {
    cancelAll();
    watchdog.close();
    executor.shutdown();
  }

  @Override
  public String toString() {
    return "JdkStreamTransport[HTTP/1.1, " + timeouts + "]";
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  static String describe(Throwable t) {
    String message = t.getMessage();
    return t.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
  }

  /**
   * One request: the body handler and subscriber the JDK calls, and what the watchdog checks. Its lock
   * orders the JDK's signals against a timeout or cancel from another thread.
   */
  private final class Exchange implements HttpResponse.BodyHandler<RequestTrace>,
      HttpResponse.BodySubscriber<RequestTrace>, StreamWatchdog.Watched {

    final CompletableFuture<RequestTrace> result = new CompletableFuture<>();
    private final long startNanos;
    private final StreamRecorder recorder;
    private volatile long lastActivityNanos;
    private volatile CompletableFuture<?> response;
    private Flow.Subscription subscription;
    private ChatStreamParser parser;
    private int status;
    private String contentType = "";
    private ByteArrayOutputStream errorBody;
    private long errorBytes;
    private boolean headers;
    private boolean finished;

    Exchange(StreamRequest request, long startNanos) {
      this.startNanos = startNanos;
      this.lastActivityNanos = startNanos;
      this.recorder = new StreamRecorder(request.capture(), Math.min(request.scheduledNanos(), startNanos), startNanos,
          request.promptTokensEstimate());
    }

    void response(CompletableFuture<?> future) {
      response = future;
      boolean done;
      synchronized (this) {
        done = finished;
      }
      if (done) future.cancel(true);
    }

    // ---- BodyHandler ----

    @Override
    public synchronized HttpResponse.BodySubscriber<RequestTrace> apply(HttpResponse.ResponseInfo info) {
      long now = System.nanoTime();
      lastActivityNanos = now;
      headers = true;
      status = info.statusCode();
      contentType = info.headers().firstValue("Content-Type").orElse("");
      parser = ChatStreamParser.forResponse(recorder, status, contentType, now);
      if (parser == null) errorBody = new ByteArrayOutputStream();
      return this;
    }

    // ---- BodySubscriber ----

    @Override
    public void onSubscribe(Flow.Subscription s) {
      boolean done;
      synchronized (this) {
        done = finished;
        subscription = s;
      }
      if (done) {
        s.cancel();
      } else {
        s.request(Long.MAX_VALUE);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      long now = System.nanoTime();
      lastActivityNanos = now;
      boolean stop = false;
      synchronized (this) {
        if (finished) return;
        if (parser != null) {
          for (ByteBuffer item : items) {
            if (!parser.feed(item, now)) {
              finish(parser.finish(now));
              stop = true;
              break;
            }
          }
        } else {
          for (ByteBuffer item : items) keepErrorBody(item);
          if (errorBytes > ERROR_BODY_LIMIT) {
            finish(recorder.finish(now, errorBytes, bodyFailure()));
            stop = true;
          }
        }
      }
      if (stop) subscription.cancel();
    }

    @Override
    public void onError(Throwable t) {
      long now = System.nanoTime();
      synchronized (this) {
        if (finished) return;
        if (parser == null) {
          finish(recorder.finish(now, errorBytes, bodyFailure()));
        } else {
          finish(parser.fail(now, new StreamFailure(StreamFailure.Cause.CUT_MID_STREAM, status,
              "the connection failed mid-stream: " + describe(t))));
        }
      }
    }

    @Override
    public void onComplete() {
      long now = System.nanoTime();
      synchronized (this) {
        if (finished) return;
        finish(parser != null ? parser.finish(now) : recorder.finish(now, errorBytes, bodyFailure()));
      }
    }

    @Override
    public CompletionStage<RequestTrace> getBody() {
      return result;
    }

    private void keepErrorBody(ByteBuffer item) {
      int n = item.remaining();
      int keep = (int) Math.max(0, Math.min(n, ERROR_EXCERPT_BYTES - errorBody.size()));
      if (keep > 0) {
        byte[] bytes = new byte[keep];
        item.duplicate().get(bytes);
        errorBody.write(bytes, 0, keep);
      }
      errorBytes += n;
    }

    private StreamFailure bodyFailure() {
      String body = Excerpt.of(errorBody.toString(StandardCharsets.UTF_8), 300);
      if (status / 100 != 2) return new StreamFailure(StreamFailure.Cause.HTTP_STATUS, status, body);
      return new StreamFailure(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE, status,
          "the answer's Content-Type is " + contentType + ", not text/event-stream or application/json: " + body);
    }

    // ---- failures from elsewhere ----

    /** The JDK gave up before a body subscriber was running: no connection, or no status line. */
    void failedBeforeBody(Throwable t) {
      Throwable cause = t instanceof CompletionException || t instanceof ExecutionException ? t.getCause() : t;
      long now = System.nanoTime();
      synchronized (this) {
        if (finished) return;
        StreamFailure failure;
        if (headers) {
          failure = new StreamFailure(StreamFailure.Cause.CUT_MID_STREAM, status,
              "the connection failed mid-stream: " + describe(cause));
        } else if (cause instanceof HttpConnectTimeoutException) {
          failure = new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0,
              "could not connect within " + Timeouts.format(timeouts.connect()));
        } else if (cause instanceof ConnectException || cause instanceof UnresolvedAddressException
            || !(cause instanceof IOException)) {
          failure = new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0, "could not connect: " + describe(cause));
        } else {
          failure = new StreamFailure(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE, 0,
              "the connection closed before a response; the request may have been read and is not resent: "
                  + describe(cause));
        }
        finish(parser != null ? parser.fail(now, failure) : recorder.finish(now, 0, failure));
      }
    }

    @Override
    public void check(long nowNanos) {
      if (nowNanos - startNanos > timeouts.request().toNanos()) {
        abort(new StreamFailure(StreamFailure.Cause.REQUEST_TIMEOUT, statusSeen(), timeouts.requestMessage()), nowNanos);
      } else if (nowNanos - lastActivityNanos > timeouts.idle().toNanos()) {
        abort(new StreamFailure(StreamFailure.Cause.IDLE_TIMEOUT, statusSeen(), timeouts.idleMessage()), nowNanos);
      }
    }

    private synchronized int statusSeen() {
      return status;
    }

    void abort(StreamFailure failure, long nowNanos) {
      Flow.Subscription s;
      synchronized (this) {
        if (finished) return;
        finish(parser != null ? parser.fail(nowNanos, failure) : recorder.finish(nowNanos, errorBytes, failure));
        s = subscription;
      }
      if (s != null) s.cancel();
      CompletableFuture<?> r = response;
      if (r != null) r.cancel(true);
    }

    /** Called with the lock held, once. */
    private void finish(RequestTrace trace) {
      finished = true;
      watchdog.remove(this);
      result.complete(trace);
    }
  }


}
