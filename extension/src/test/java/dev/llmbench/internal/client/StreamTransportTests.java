package dev.llmbench.internal.client;

import static dev.llmbench.internal.client.ScriptedServer.answer;
import static dev.llmbench.internal.client.ScriptedServer.chunk;
import static dev.llmbench.internal.client.ScriptedServer.headers;
import static dev.llmbench.internal.client.ScriptedServer.lastChunk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.Usage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The Netty transport against servers that answer, stall, cut and drop; nothing is ever sent twice. */
class StreamTransportTests {

  /** Short enough to test, long enough for a cold JVM's first request on a loaded runner. */
  private static final Timeouts TIMEOUTS = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(1),
      "llmbench.idle-timeout", Duration.ofSeconds(10), "llmbench.request-timeout");

  private static final Timeouts PATIENT = new Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(30),
      "llmbench.idle-timeout", Duration.ofSeconds(60), "llmbench.request-timeout");

  private static final String STREAM = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
      + "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
      + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n"
      + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
      + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}\n\n"
      + "data: [DONE]\n\n";

  /**
   * For tests that count connections: a cold JVM on a loaded runner can take seconds between two requests
   * (class loading, the first assertions), past the default 2 s keep-alive limit.
   */
  private static final Duration ROOMY_KEEP_ALIVE = Duration.ofMinutes(1);

  private static final byte[] BODY = "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);

  private static StreamRequest request(URI uri) {
    return new StreamRequest(uri, BODY, Map.of("Authorization", "Bearer sk-test"), true, TextCapture.FULL,
        System.nanoTime(), 1);
  }

  private static RequestTrace send(StreamTransport transport, URI uri) {
    return transport.send(request(uri)).join();
  }

  /** Streams {@link #STREAM} in chunks of one event each, keeping the connection. */
  private static boolean stream(ScriptedServer.Received r, java.net.Socket s, java.io.OutputStream out, int i)
      throws IOException {
    headers(out, 200, "text/event-stream; charset=utf-8", -1);
    for (String event : STREAM.split("(?<=\n\n)")) chunk(out, event);
    lastChunk(out);
    return true;
  }

  @Test
  void readsAStreamAndReusesTheConnection() throws Exception {
    try (ScriptedServer server = new ScriptedServer(StreamTransportTests::stream);
        NettyStreamTransport transport = transport(ROOMY_KEEP_ALIVE)) {
      for (int i = 0; i < 3; i++) {
        RequestTrace t = send(transport, server.uri("/v1/chat/completions"));
        assertThat(t.succeeded()).as("%s", t).isTrue();
        assertThat(t.content()).isEqualTo("ab");
        assertThat(t.serverUsage()).contains(new Usage(3, 2, null));
        assertThat(t.tokenChunks()).isEqualTo(2);
        assertThat(t.headersNanos()).isBetween(t.startNanos(), t.tokenNanos(0));
        // A connection is back in the pool RELEASE_HOLD after its response; a request sooner takes a new one.
        backInPool(transport);
      }
      assertThat(server.connections()).isEqualTo(1);
      ScriptedServer.Received r = server.received().get(0);
      assertThat(r.method()).isEqualTo("POST");
      assertThat(r.headers()).containsEntry("authorization", "Bearer sk-test").containsEntry("accept", "text/event-stream");
      assertThat(r.headers().get("content-type")).startsWith("application/json");
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(new String(BODY, StandardCharsets.UTF_8));
      assertThat(transport.inFlight()).isZero();
    }
  }

  @Test
  void statusAndContentTypeFailuresCarryTheBody() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      if (i == 0) answer(out, 503, "application/json", "{\"error\":{\"message\":\"Loading model\"}}");
      if (i == 1) answer(out, 200, "text/html", "<html><body>proxy login</body></html>");
      if (i == 2) answer(out, 200, "application/json", "{\"choices\":[{\"message\":{\"content\":\"whole\"},\"finish_reason\":\"stop\"}]}");
      return true;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      StreamFailure status = send(transport, server.uri("/")).streamFailure().orElseThrow();
      assertThat(status.cause()).isEqualTo(StreamFailure.Cause.HTTP_STATUS);
      assertThat(status.status()).isEqualTo(503);
      assertThat(status.message()).contains("Loading model");
      StreamFailure html = send(transport, server.uri("/")).streamFailure().orElseThrow();
      assertThat(html.cause()).isEqualTo(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE);
      assertThat(html.message()).contains("text/html").contains("proxy login");
      RequestTrace whole = send(transport, server.uri("/"));
      assertThat(whole.succeeded()).as("%s", whole).isTrue();
      assertThat(whole.streamed()).isFalse();
      assertThat(whole.content()).isEqualTo("whole");
    }
  }

  @Test
  void idleTimeoutBeforeAndDuringTheStreamNamesTheSetting() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      if (i == 1) {
        headers(out, 200, "text/event-stream", -1);
        chunk(out, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
      }
      Thread.sleep(10_000);
      return false;
    }); StreamTransport transport = new NettyStreamTransport(TIMEOUTS)) {
      for (int tokens = 0; tokens <= 1; tokens++) {
        long start = System.nanoTime();
        RequestTrace t = send(transport, server.uri("/"));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        StreamFailure f = t.streamFailure().orElseThrow();
        assertThat(f.cause()).isEqualTo(StreamFailure.Cause.IDLE_TIMEOUT);
        assertThat(f.message()).isEqualTo("no byte for longer than llmbench.idle-timeout = 1s");
        assertThat(t.tokenChunks()).isEqualTo(tokens);
        assertThat(took).isBetween(Duration.ofMillis(990), Duration.ofSeconds(6));
      }
      assertThat(transport.inFlight()).isZero();
    }
  }

  @Test
  void requestTimeoutFiresOnAStreamThatTricklesForever() throws Exception {
    Timeouts shortRequest = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(1), "llmbench.idle-timeout",
        Duration.ofMillis(2500), "llmbench.request-timeout");
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      headers(out, 200, "text/event-stream", -1);
      for (int n = 0; n < 400; n++) {
        chunk(out, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
        Thread.sleep(50);
      }
      return false;
    }); StreamTransport transport = new NettyStreamTransport(shortRequest)) {
      long start = System.nanoTime();
      RequestTrace t = send(transport, server.uri("/"));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      StreamFailure f = t.streamFailure().orElseThrow();
      assertThat(f.cause()).isEqualTo(StreamFailure.Cause.REQUEST_TIMEOUT);
      assertThat(f.message()).isEqualTo("the request took longer than llmbench.request-timeout = 2.5s");
      assertThat(took).isBetween(Duration.ofMillis(2490), Duration.ofSeconds(8));
      assertThat(t.tokenChunks()).isGreaterThan(2);
    }
  }

  @Test
  void streamCutAfterSomeEventsIsNotAConnectionThatNeverOpened() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      headers(out, 200, "text/event-stream", 100_000);
      out.write(STREAM.substring(0, STREAM.indexOf("data: {\"choices\":[{\"delta\":{},")).getBytes(StandardCharsets.UTF_8));
      out.flush();
      Thread.sleep(100);
      if (i == 0) {
        s.close();
      } else {
        ScriptedServer.reset(s);
      }
      return false;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      for (int i = 0; i < 2; i++) {
        RequestTrace cut = send(transport, server.uri("/"));
        StreamFailure f = cut.streamFailure().orElseThrow();
        assertThat(f.cause()).as("%s", f).isEqualTo(StreamFailure.Cause.CUT_MID_STREAM);
        assertThat(f.status()).isEqualTo(200);
        assertThat(f.message()).startsWith("the connection ended mid-stream after 3 events");
        assertThat(cut.events()).isEqualTo(3);
        assertThat(cut.tokenChunks()).isEqualTo(2);
      }
    }
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    try (StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      StreamFailure refused = send(transport, URI.create("http://127.0.0.1:" + closedPort + "/")).streamFailure().orElseThrow();
      assertThat(refused.cause()).isEqualTo(StreamFailure.Cause.CONNECT_FAILED);
      assertThat(refused.status()).isZero();
    }
  }

  /** The server reads every POST in full, then drops the connection (FIN, or RST) before a status line. */
  @Test
  void requestTheServerReadAndDroppedIsNeverResent() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      if (i == 0) return stream(r, s, out, i); // a first answer leaves a pooled connection
      if (i % 2 == 0) ScriptedServer.reset(s);
      return false;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      assertThat(send(transport, server.uri("/")).succeeded()).isTrue();
      int failures = 0;
      for (int i = 0; i < 4; i++) {
        StreamFailure f = send(transport, server.uri("/")).streamFailure().orElseThrow();
        assertThat(f.cause()).as("%s", f).isEqualTo(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE);
        assertThat(f.message()).contains("not resent");
        failures++;
      }
      List<CompletableFuture<RequestTrace>> together = new ArrayList<>();
      for (int i = 0; i < 8; i++) together.add(transport.send(request(server.uri("/"))));
      for (CompletableFuture<RequestTrace> f : together) {
        assertThat(f.join().streamFailure().orElseThrow().cause()).isEqualTo(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE);
        failures++;
      }
      assertThat(server.requests()).as("POSTs the server read").isEqualTo(1 + failures);
    }
  }

  @Test
  void anAnswerThatIsNotHttpSaysSoAndIsNotResent() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      out.write("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      Thread.sleep(2000);
      return false;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      StreamFailure f = send(transport, server.uri("/")).streamFailure().orElseThrow();
      assertThat(f.cause()).isEqualTo(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE);
      assertThat(f.message()).startsWith("the answer is not an HTTP/1.1 response").contains("check the URL's scheme and port");
      assertThat(server.requests()).isEqualTo(1);
    }
  }

  /**
   * llama-server answers keep-alive, then closes the connection right after each stream. Requests sent back
   * to back, one by one and then eight at a time, must never be written into such a connection.
   */
  @Test
  void aServerThatClosesAfterEveryStreamLosesNoRequest() throws Exception {
    try (ScriptedServer server = new ScriptedServer(StreamTransportTests::streamThenClose);
        NettyStreamTransport transport = new NettyStreamTransport(PATIENT)) {
      for (int i = 0; i < 20; i++) {
        RequestTrace t = send(transport, server.uri("/"));
        assertThat(t.succeeded()).as("request %d: %s", i, t).isTrue();
        assertThat(t.resends()).isZero();
      }
      for (int round = 0; round < 5; round++) {
        List<CompletableFuture<RequestTrace>> together = new ArrayList<>();
        for (int i = 0; i < 8; i++) together.add(transport.send(request(server.uri("/"))));
        for (CompletableFuture<RequestTrace> f : together) assertThat(f.join().succeeded()).as("%s", f.join()).isTrue();
      }
      assertThat(server.requests()).as("POSTs the server read").isEqualTo(60);
      List<ScriptedServer.Received> received = server.received();
      assertThat(received.get(received.size() - 1).headers()).as("once the server was seen closing")
          .containsEntry("connection", "close");
      assertThat(transport.closesAfterEachResponse(server.uri("/v1/chat/completions"))).isTrue();
    }
  }

  /**
   * Our own close of a reused connection (a request cancelled mid-stream) is not the server closing after
   * a response: the keep-alive server's connections stay pooled and no request asks Connection: close.
   */
  @Test
  void ourOwnCloseOfAReusedConnectionDoesNotStopPooling() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      if (i != 1) return stream(r, s, out, i);
      headers(out, 200, "text/event-stream", -1);
      chunk(out, STREAM.split("(?<=\n\n)")[0]);
      Thread.sleep(3000);
      return false;
    }); NettyStreamTransport transport = transport(ROOMY_KEEP_ALIVE)) {
      assertThat(send(transport, server.uri("/")).succeeded()).isTrue();
      backInPool(transport);
      CompletableFuture<RequestTrace> stalled = transport.send(request(server.uri("/")));
      Thread.sleep(200);
      transport.cancelAll();
      assertThat(stalled.join().streamFailure().orElseThrow().cause()).isEqualTo(StreamFailure.Cause.CANCELLED);
      for (int i = 0; i < 5; i++) {
        RequestTrace t = send(transport, server.uri("/"));
        assertThat(t.succeeded()).as("request %d after the cancel: %s", i, t).isTrue();
        backInPool(transport);
      }
      assertThat(server.received()).extracting(r -> r.headers().get("connection")).doesNotContain("close");
      assertThat(server.connections()).as("the first, and one after the cancelled").isEqualTo(2);
      assertThat(transport.closesAfterEachResponse(server.uri("/"))).isFalse();
    }
  }

  /** As llama-server: a keep-alive answer, then the connection closed at once. */
  private static boolean streamThenClose(ScriptedServer.Received r, java.net.Socket s, java.io.OutputStream out, int i)
      throws IOException {
    stream(r, s, out, i);
    return false;
  }

  /** llama-server closes idle connections; the next request must not fail on one of them. */
  @Test
  void connectionTheServerClosedWhileIdleIsNotUsed() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      stream(r, s, out, i);
      Thread.sleep(50);
      return false;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      for (int i = 0; i < 3; i++) {
        RequestTrace t = send(transport, server.uri("/"));
        assertThat(t.succeeded()).as("request %d: %s", i, t).isTrue();
        Thread.sleep(300);
      }
      assertThat(server.requests()).isEqualTo(3);
      assertThat(server.connections()).isEqualTo(3);
    }
  }

  @Test
  void cancelAllEndsStreamsInFlight() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      headers(out, 200, "text/event-stream", -1);
      chunk(out, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
      Thread.sleep(20_000);
      return false;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      List<CompletableFuture<RequestTrace>> running = new ArrayList<>();
      for (int i = 0; i < 4; i++) running.add(transport.send(request(server.uri("/"))));
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (server.requests() < 4 && System.nanoTime() < deadline) Thread.sleep(10);
      Thread.sleep(200);
      long start = System.nanoTime();
      transport.cancelAll();
      for (CompletableFuture<RequestTrace> f : running) {
        RequestTrace t = f.join();
        assertThat(t.streamFailure().orElseThrow().cause()).isEqualTo(StreamFailure.Cause.CANCELLED);
        assertThat(t.tokenChunks()).isEqualTo(1);
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }
  }

  @Test
  void corruptStreamStopsReadingAndIsNotReused() throws Exception {
    try (ScriptedServer server = new ScriptedServer((r, s, out, i) -> {
      if (i > 0) return stream(r, s, out, i);
      headers(out, 200, "text/event-stream", -1);
      chunk(out, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
      chunk(out, new byte[] {'d', 'a', 't', 'a', ':', ' ', '{', '"', 'x', '"', ':', '"', (byte) 0xC3, '(', '"', '}', '\n', '\n'});
      Thread.sleep(20_000); // a reader that kept going would wait here for its idle timeout
      return false;
    }); StreamTransport transport = new NettyStreamTransport(PATIENT)) {
      long start = System.nanoTime();
      RequestTrace t = send(transport, server.uri("/"));
      assertThat(t.streamFailure().orElseThrow().cause()).isEqualTo(StreamFailure.Cause.INVALID_UTF8);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      assertThat(t.content()).isEqualTo("a");
      assertThat(send(transport, server.uri("/")).succeeded()).isTrue();
      assertThat(server.connections()).isEqualTo(2);
    }
  }

  /**
   * A server whose keep-alive closes a connection left idle longer than {@code keepAlive}, with the race made
   * certain: its close is still on the way when the next request arrives, so it reads that request and closes
   * without a status line, as a server whose close crossed the request does. Counts the requests so lost.
   */
  private static final class KeepAliveServer implements ScriptedServer.Script {
    private final Duration keepAlive;
    private final String keepAliveHeader;
    private final Map<java.net.Socket, Long> idleSince = new java.util.concurrent.ConcurrentHashMap<>();
    final java.util.concurrent.atomic.AtomicInteger lost = new java.util.concurrent.atomic.AtomicInteger();

    /** @param keepAliveHeader the answers' {@code Keep-Alive} header, or null for none (uvicorn sends none) */
    KeepAliveServer(Duration keepAlive, String keepAliveHeader) {
      this.keepAlive = keepAlive;
      this.keepAliveHeader = keepAliveHeader;
    }

    @Override
    public boolean answer(ScriptedServer.Received r, java.net.Socket s, java.io.OutputStream out, int i) throws IOException {
      Long since = idleSince.get(s);
      if (since != null && System.nanoTime() - since > keepAlive.toNanos()) {
        lost.incrementAndGet();
        return false;
      }
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
          + (keepAliveHeader == null ? "" : "Keep-Alive: " + keepAliveHeader + "\r\n") + "\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      for (String event : STREAM.split("(?<=\n\n)")) chunk(out, event);
      lastChunk(out);
      idleSince.put(s, System.nanoTime()); // the server's idle clock starts as the response's end leaves
      return true;
    }
  }

  /**
   * Waits until every connection given back after its response is in its pool again, so that the next request
   * finds it there: an event, where a sleep of ten holds failed on a busy runner whose event loop ran the hold late.
   */
  private static void backInPool(NettyStreamTransport transport) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (transport.connectionsReturning() > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(transport.connectionsReturning() + " connection(s) still held 10 s after their response");
      }
      Thread.sleep(1);
    }
  }

  private static NettyStreamTransport transport(Duration keepAlive) {
    ConnectionSettings settings = ConnectionSettings.DEFAULT.withProxy(ConnectionSettings.ProxySetting.NONE)
        .withKeepAlive(keepAlive);
    return new NettyStreamTransport(ConnectionOptions.of(URI.create("http://127.0.0.1/"), null, settings, k -> null,
        PATIENT.connect()), PATIENT, 2);
  }

  /**
   * A request after the server's keep-alive has run out goes on a new connection, never into the one the server
   * is closing, where it would fail and could not be resent.
   */
  private static void notReusedPastTheServersKeepAlive(ScriptedServer server, KeepAliveServer keepAlive,
      NettyStreamTransport transport, Duration serverKeepAlive) throws Exception {
    RequestTrace first = send(transport, server.uri("/"));
    assertThat(first.succeeded()).as("%s", first).isTrue();
    Thread.sleep(serverKeepAlive.plusMillis(500).toMillis()); // the pooled connection is now past the server's limit
    RequestTrace late = send(transport, server.uri("/"));
    assertThat(late.succeeded()).as("the request after the server's keep-alive ran out: %s", late).isTrue();
    assertThat(late.resends()).isZero();
    assertThat(keepAlive.lost.get()).as("requests written into a connection the server was closing").isZero();
    assertThat(server.requests()).as("POSTs the server read").isEqualTo(2);
    assertThat(server.connections()).isEqualTo(2);
  }

  /**
   * The keep-alive race (uvicorn closes idle connections after 5 s), with llmbench.keep-alive below the server's
   * limit by as much as the default's 2 s is below uvicorn's 5 s, less a little.
   */
  @Test
  void aConnectionIdlePastTheKeepAliveLimitIsNotReused() throws Exception {
    Duration serverKeepAlive = Duration.ofSeconds(2);
    KeepAliveServer keepAlive = new KeepAliveServer(serverKeepAlive, null);
    try (ScriptedServer server = new ScriptedServer(keepAlive);
        NettyStreamTransport transport = transport(Duration.ofMillis(200))) {
      notReusedPastTheServersKeepAlive(server, keepAlive, transport, serverKeepAlive);
    }
  }

  /** A server that says {@code Keep-Alive: timeout=2} is not sent a request on a connection idle 1 s or more. */
  @Test
  void aServersKeepAliveTimeoutLowersTheLimit() throws Exception {
    Duration serverKeepAlive = Duration.ofSeconds(2);
    KeepAliveServer keepAlive = new KeepAliveServer(serverKeepAlive, "timeout=2, max=100");
    try (ScriptedServer server = new ScriptedServer(keepAlive);
        NettyStreamTransport transport = transport(ROOMY_KEEP_ALIVE)) {
      notReusedPastTheServersKeepAlive(server, keepAlive, transport, serverKeepAlive);
    }
  }

  @Test
  void keepAliveHeaderTimeoutLessTheMarginIsTheLimit() {
    assertThat(NettyConnectionPool.serverLimit("timeout=5, max=100")).contains(Duration.ofSeconds(4));
    assertThat(NettyConnectionPool.serverLimit("max=100, Timeout = \"3\"")).contains(Duration.ofSeconds(2));
    assertThat(NettyConnectionPool.serverLimit("timeout=1")).contains(Duration.ZERO);
    assertThat(NettyConnectionPool.serverLimit("max=100")).isEmpty();
    assertThat(NettyConnectionPool.serverLimit("timeout=2.5")).isEmpty();
    assertThat(NettyConnectionPool.serverLimit(null)).isEmpty();
  }

  @Test
  void zeroKeepAliveOpensAConnectionForEachRequest() throws Exception {
    try (ScriptedServer server = new ScriptedServer(StreamTransportTests::stream);
        NettyStreamTransport transport = transport(Duration.ZERO)) {
      for (int i = 0; i < 3; i++) {
        assertThat(send(transport, server.uri("/")).succeeded()).isTrue();
        backInPool(transport);
      }
      assertThat(server.connections()).isEqualTo(3);
      assertThat(transport.closesAfterEachResponse(server.uri("/"))).as("our own closes are not the server's").isFalse();
    }
  }
}
