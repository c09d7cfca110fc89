package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The event-stream grammar, on every read boundary. */
class SseFramerTests {

  /** Records each dispatched event's data as the spec defines it: data lines joined by LF. */
  private static final class Events implements SseFramer.Sink {
    final List<String> data = new ArrayList<>();
    final List<Long> arrivals = new ArrayList<>();
    private final ByteArrayOutputStream current = new ByteArrayOutputStream();
    private boolean first = true;

    @Override
    public void dataLine() {
      if (!first) current.write('\n');
      first = false;
    }

    @Override
    public void data(byte[] bytes, int from, int to) {
      assertThat(to).isGreaterThan(from);
      current.write(bytes, from, to - from);
    }

    @Override
    public void dispatch(long arrivalNanos) {
      data.add(current.toString(StandardCharsets.UTF_8));
      arrivals.add(arrivalNanos);
      current.reset();
      first = true;
    }
  }

  private static Events frame(byte[] stream, int... cuts) throws Exception {
    Events events = new Events();
    SseFramer framer = new SseFramer(events);
    int from = 0;
    long read = 0;
    for (int cut : cuts) {
      framer.feed(stream, from, cut, read++);
      from = cut;
    }
    framer.feed(stream, from, stream.length, read);
    return events;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyLineEndingEndsLinesAndBlankLinesEndEvents() throws Exception {
    assertThat(frame(bytes("data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\r\n")).data)
        .containsExactly("a", "b", "c", "d");
  }

  @Test
  void commentsAndOtherFieldsAreSkippedAndDoNotMakeEvents() throws Exception {
    Events events = frame(bytes(": ping\n\nevent: message\nid: 7\nretry: 10\ndata: x\n\n: bye\n\nid: 8\n\n"));
    assertThat(events.data).containsExactly("x");
  }

  @Test
  void dataLinesAreJoinedWithLineFeedsAndOneLeadingSpaceIsDropped() throws Exception {
    assertThat(frame(bytes("data:a\ndata:  b\ndata\ndata:\n\n")).data).containsExactly("a\n b\n\n");
  }

  @Test
  void fieldNamesMustMatchExactly() throws Exception {
    assertThat(frame(bytes("dat: a\ndata2: b\nDATA: c\ndata: d\n\n")).data).containsExactly("d");
  }

  @Test
  void leadingByteOrderMarkIsSkipped() throws Exception {
    byte[] stream = bytes("\uFEFFdata: x\n\n");
    assertThat(frame(stream).data).containsExactly("x");
    assertThat(frame(stream, 1, 2).data).containsExactly("x");
  }

  @Test
  void anEventArrivesWithTheReadThatCompletedIt() throws Exception {
    byte[] stream = bytes("data: a\n\ndata: b\n\n");
    Events events = frame(stream, 12, 17);
    assertThat(events.data).containsExactly("a", "b");
    // Read 0 = "data: a\n\nda", read 1 = "ta: b", read 2 = "\n\n".
    assertThat(events.arrivals).containsExactly(0L, 2L);
  }

  @Test
  void eventWithoutBlankLineAtTheEndIsNotDispatched() throws Exception {
    assertThat(frame(bytes("data: a\n\ndata: b\n")).data).containsExactly("a");
  }

  @Test
  void sameEventsOnEveryReadBoundaryAndByteByByte() throws Exception {
    byte[] stream = bytes("\uFEFF: hi\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nevent: x\rdata:é€😀\r\r"
        + "data\n\ndata: [DONE]\n\n");
    List<String> whole = frame(stream).data;
    assertThat(whole).containsExactly("{\"a\":\n1}", "é€😀", "", "[DONE]");
    for (int cut = 1; cut < stream.length; cut++) {
      assertThat(frame(stream, cut).data).as("cut at %d", cut).isEqualTo(whole);
    }
    for (int a = 1; a < stream.length; a++) {
      for (int b = a; b < stream.length; b++) {
        assertThat(frame(stream, a, b).data).as("cuts at %d and %d", a, b).isEqualTo(whole);
      }
    }
    int[] everyByte = new int[stream.length - 1];
    for (int i = 0; i < everyByte.length; i++) everyByte[i] = i + 1;
    assertThat(frame(stream, everyByte).data).isEqualTo(whole);
  }

  @Test
  void lineEndIsFoundAtEveryPositionAmongAnyBytes() {
    Random random = new Random(5);
    for (int length = 0; length < 40; length++) {
      for (int at = 0; at <= length; at++) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
          byte b;
          do {
            b = (byte) random.nextInt(256);
          } while (b == '\n' || b == '\r');
          bytes[i] = b;
        }
        if (at < length) bytes[at] = random.nextBoolean() ? (byte) '\n' : (byte) '\r';
        if (at + 1 < length && random.nextBoolean()) bytes[at + 1] = '\n';
        assertThat(SseFramer.lineEnd(bytes, 0, length)).as("length %d, at %d", length, at).isEqualTo(at);
        if (at > 0) assertThat(SseFramer.lineEnd(bytes, 1, length)).isEqualTo(at);
      }
    }
    byte[] edge = {0x0B, 0x0C, 0x0E, (byte) 0x8A, (byte) 0x8D, 0x1A, 0x1D, 0x09, 0x0D};
    assertThat(SseFramer.lineEnd(edge, 0, edge.length)).isEqualTo(8);
  }

  @Test
  void veryLongLinesStreamThroughInPieces() throws Exception {
    int size = 6 << 20;
    StringBuilder s = new StringBuilder(": ").append("c".repeat(size)).append("\nid: ").append("i".repeat(size))
        .append("\ndata: ").append("d".repeat(size)).append("\n\n");
    byte[] stream = bytes(s.toString());
    Random random = new Random(11);
    int[] cuts = new int[200];
    for (int i = 0; i < cuts.length; i++) cuts[i] = random.nextInt(stream.length);
    java.util.Arrays.sort(cuts);
    List<String> data = frame(stream, cuts).data;
    assertThat(data).hasSize(1);
    assertThat(data.get(0)).hasSize(size).matches("d+");
  }
}
