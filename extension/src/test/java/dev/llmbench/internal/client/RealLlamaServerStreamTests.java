package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The parser's shortcut on what a real engine sends: llama.cpp's llama-server on 127.0.0.1:8091, as
 * scripts/real-engine.sh starts it. Its chunks carry escapes, U+FFFD and a timings object on the last one;
 * read one event a read (as a server streaming token by token delivers them) and in one read, the trace
 * must be Jackson's to the last field, and every chunk but the first and the last must take the shortcut.
 */
@Tag("real-engine")
@Timeout(120)
class RealLlamaServerStreamTests {

  private static final URI CHAT = URI.create("http://127.0.0.1:8091/v1/chat/completions");

  @Test
  void llamaServerChunksAfterTheFirstSkipJacksonAndReadTheSame() throws Exception {
    byte[] body = stream("Write a Python function that checks whether a number is prime.");
    List<int[]> oneEventARead = new ArrayList<>();
    int from = 0;
    for (int i = 0; i + 1 < body.length; i++) {
      if (body[i] == '\n' && body[i + 1] == '\n') {
        oneEventARead.add(new int[] {from, i + 2});
        from = i + 2;
      }
    }
    for (List<int[]> reads : List.of(oneEventARead, List.of(new int[] {0, body.length}))) {
      Reading fast = read(body, reads, true);
      Reading jackson = read(body, reads, false);
      assertThat(ChatStreamShortcutTests.fields(fast.trace)).isEqualTo(ChatStreamShortcutTests.fields(jackson.trace));
      assertThat(fast.trace.succeeded()).as(fast.trace.toString()).isTrue();
      assertThat(fast.trace.tokenChunks()).isGreaterThan(10);
      // The first token chunk teaches the template, the last carries finish_reason and timings; each new "created"
      // second mid-stream costs one more (a stream that spans two second boundaries on a busy machine costs two).
      int seconds = createdSeconds(body);
      assertThat(fast.shortcutEvents).as("of %d events, over %d distinct created seconds", fast.trace.events(), seconds)
          .isBetween(fast.trace.events() - 2 - seconds, fast.trace.events() - 2);
    }
  }

  /** How many distinct {@code created} values the stream's chunks carry: each after the first is a new template. */
  private static int createdSeconds(byte[] body) {
    Matcher m = Pattern.compile("\"created\":(\\d+)")
        .matcher(new String(body, StandardCharsets.UTF_8));
    Set<String> seen = new HashSet<>();
    while (m.find()) seen.add(m.group(1));
    return seen.size();
  }

  /** The tiny model may sample its end of text after a few tokens (7 in one CI run): ignore_eos makes it 64. */
  private static byte[] stream(String prompt) throws Exception {
    String json = "{\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}],\"max_tokens\":64,\"ignore_eos\":true,\"stream\":true}";
    HttpResponse<byte[]> response;
    try {
      response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(CHAT).timeout(Duration.ofSeconds(60))
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
          HttpResponse.BodyHandlers.ofByteArray());
    } catch (java.net.ConnectException e) {
      throw new AssertionError("no llama-server at " + CHAT + ": start it with scripts/llama-server.sh start 8091 1,"
          + " or run scripts/real-engine.sh", e);
    }
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private record Reading(RequestTrace trace, int shortcutEvents) {}

  private static Reading read(byte[] body, List<int[]> reads, boolean shortcut) {
    StreamRecorder recorder = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    recorder.headers(200, 1, true);
    ChatStreamParser parser = shortcut ? ChatStreamParser.eventStream(recorder)
        : ChatStreamParser.eventStreamWithoutShortcut(recorder);
    long time = 1000;
    for (int[] read : reads) parser.feed(body, read[0], read[1], time++);
    return new Reading(parser.finish(time), parser.shortcutEvents());
  }
}
