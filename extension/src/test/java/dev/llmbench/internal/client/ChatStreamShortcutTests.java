package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The parser's shortcut for repeated envelopes against Jackson alone: any stream, read both ways in the same
 * reads, gives the same trace to the last field. The streams mix what servers send (several envelopes,
 * reasoning, completions, usage on every chunk, tool calls, errors, comments, CRLF, multi-line data) with
 * near misses (escapes, non-ASCII, control bytes, a changed envelope, trailing junk, cut events).
 */
class ChatStreamShortcutTests {

  /** Envelopes around one text string; {@code %s} is the string with its quotes. */
  private static final String[] ENVELOPES = {
      "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"m\","
          + "\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"logprobs\":null,\"finish_reason\":null}]}",
      "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":%s}}],\"created\":1700000001,"
          + "\"id\":\"chatcmpl-abc\",\"model\":\"m\",\"system_fingerprint\":\"b1\",\"object\":\"chat.completion.chunk\"}",
      " { \"id\" : \"x\" , \"choices\" : [ { \"delta\" : { \"content\" : %s } } ] } ",
      "{\"choices\":[{\"delta\":{\"reasoning_content\":%s}}]}",
      "{\"choices\":[{\"delta\":{\"reasoning\":%s}}]}",
      "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":%s,\"finish_reason\":null}]}",
      "{\"id\":\"u\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}],"
          + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,\"total_tokens\":12}}",
      "{\"id\":\"same\",\"model\":\"same\",\"choices\":[{\"delta\":{\"content\":%s}},{\"delta\":{\"content\":\"other\"}}]}",
      "{\"choices\":[{\"delta\":{\"content\":%s,\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}",
      "{\"choices\":[{\"delta\":{\"content\":%s}}],\"timings\":{\"predicted_per_second\":12.5}}",
      "{\"choices\":[{\"delta\":{\"content\":%s},\"finish_reason\":\"stop\"}]}",
      "{\"object\":\"error\",\"message\":\"boom\",\"choices\":[{\"delta\":{\"content\":%s}}]}",
      "{\"choices\":[{\"delta\":{\"reasoning_content\":%s,\"content\":\"b\"}}]}",
      "{\"choices\":[{\"delta\":{\"content\":\"\",\"reasoning\":%s}}]}",
  };

  private static final String[] OTHER_EVENTS = {
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
      "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n",
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":9,"
          + "\"prompt_tokens_details\":{\"cached_tokens\":4}}}\n\n",
      ": keep-alive\n\n",
      "event: message\nid: 7\nretry: 10\n\n",
      "data:\n\n",
      "data: {\"error\":{\"message\":\"overloaded\"}}\n\n",
  };

  private static final String[] WORDS = {" the", " model", "Paris", ".", "", " 42", "a b", "x", " same", "m"};

  @Test
  void everyStreamReadsTheSameWithAndWithoutTheShortcut() {
    int shortcutEvents = 0;
    int events = 0;
    for (int i = 0; i < 1500; i++) {
      int seed = i;
      Random random = new Random(seed);
      byte[] body = stream(random);
      int[] reads = reads(random, body.length);
      Reading fast = read(body, reads, true);
      Reading jackson = read(body, reads, false);
      assertThat(fields(fast.trace))
          .as(() -> "seed " + seed + ", reads " + Arrays.toString(reads) + ", body:\n" + new String(body, StandardCharsets.UTF_8))
          .isEqualTo(fields(jackson.trace));
      assertThat(jackson.shortcutEvents).isZero();
      shortcutEvents += fast.shortcutEvents;
      events += jackson.trace.events();
    }
    // The comparison means something only if the shortcut took a fair share of the events (most streams
    // here are short, switch envelopes, or come in reads that split their events).
    assertThat(shortcutEvents).as("events read by the shortcut, of %d", events).isGreaterThan(events / 10);
  }

  @Test
  void takesEveryRepeatedChunkOfAVllmStyleStreamInLargeAndTinyReads() {
    StringBuilder s = new StringBuilder(OTHER_EVENTS[0]);
    for (int i = 0; i < 1000; i++) s.append(event(ENVELOPES[0], quoted(WORDS[i % 4]), false, "data: "));
    s.append(OTHER_EVENTS[1]).append(OTHER_EVENTS[2]).append("data: [DONE]\n\n");
    byte[] body = s.toString().getBytes(StandardCharsets.UTF_8);
    for (int size : new int[] {16384, 7}) {
      int[] reads = new int[(body.length + size - 1) / size];
      for (int i = 0; i < reads.length; i++) reads[i] = Math.min(body.length, (i + 1) * size);
      Reading fast = read(body, reads, true);
      Reading jackson = read(body, reads, false);
      assertThat(fields(fast.trace)).isEqualTo(fields(jackson.trace));
      assertThat(fast.trace.succeeded()).isTrue();
      assertThat(fast.trace.tokenChunks()).isEqualTo(1000);
      // One chunk teaches the template; a chunk split across two reads goes to Jackson, so tiny reads get none.
      int least = size > 1000 ? 1000 - 1 - reads.length : 0;
      assertThat(fast.shortcutEvents).as("reads of %d bytes", size).isBetween(least, size > 1000 ? 999 : 0);
    }
  }

  @Test
  void takesChineseTextAndEscapesAsWell() {
    String[] texts = {"巴黎", "是", "法国的首都", "😀", "\\n", "    return n % 2 == 0\\n", "say \\\"hi\\\"", "\\u00e9"};
    StringBuilder s = new StringBuilder(OTHER_EVENTS[0]);
    for (int i = 0; i < 1000; i++) s.append(event(ENVELOPES[0], quoted(texts[i % texts.length]), false, "data: "));
    s.append(OTHER_EVENTS[1]).append("data: [DONE]\n\n");
    byte[] body = s.toString().getBytes(StandardCharsets.UTF_8);
    int[] reads = {body.length};
    Reading fast = read(body, reads, true);
    assertThat(fields(fast.trace)).isEqualTo(fields(read(body, reads, false).trace));
    assertThat(fast.trace.content()).startsWith("巴黎是法国的首都😀\n    return n % 2 == 0\nsay \"hi\"é巴黎");
    assertThat(fast.shortcutEvents).isEqualTo(999);
  }

  @Test
  void aChunkWhoseTextEqualsAnotherValueOfItsEnvelopeStillReadsItsOwnText() {
    String envelope = "{\"id\":%s,\"choices\":[{\"delta\":{\"content\":%s}}]}";
    StringBuilder s = new StringBuilder();
    String[][] chunks = {{"a", "a"}, {"b", "a"}, {"a", "b"}, {"a", "a"}, {"c", "c"}, {"a", "c"}};
    for (String[] c : chunks) s.append("data: ").append(String.format(envelope, quoted(c[0]), quoted(c[1]))).append("\n\n");
    s.append("data: [DONE]\n\n");
    byte[] body = s.toString().getBytes(StandardCharsets.UTF_8);
    Reading fast = read(body, new int[] {body.length}, true);
    assertThat(fast.trace.content()).isEqualTo("aabacc");
    assertThat(fast.shortcutEvents).isPositive();
    assertThat(fields(fast.trace)).isEqualTo(fields(read(body, new int[] {body.length}, false).trace));
  }

  // ---- streams ----

  private static byte[] stream(Random random) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String envelope = ENVELOPES[random.nextInt(ENVELOPES.length)];
    int n = 1 + random.nextInt(30);
    for (int i = 0; i < n; i++) {
      int roll = random.nextInt(100);
      String event;
      if (roll < 6) {
        envelope = ENVELOPES[random.nextInt(ENVELOPES.length)];
        continue;
      } else if (roll < 14) {
        event = OTHER_EVENTS[random.nextInt(OTHER_EVENTS.length)];
      } else if (roll < 17) {
        event = broken(random, envelope);
      } else {
        String prefix = random.nextInt(10) == 0 ? "data:  " : random.nextInt(10) == 0 ? "data:" : "data: ";
        event = event(envelope, text(random), random.nextInt(12) == 0, prefix);
      }
      if (random.nextInt(15) == 0) event = event.replace("\n", "\r\n");
      out.writeBytes(event.getBytes(StandardCharsets.ISO_8859_1));
    }
    int end = random.nextInt(10);
    if (end < 6) {
      out.writeBytes("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
    } else if (end == 6) {
      // The last event without its blank line, or cut in half.
      String last = event(envelope, quoted("end"), false, "data: ");
      out.writeBytes(last.substring(0, random.nextInt(last.length())).getBytes(StandardCharsets.ISO_8859_1));
    }
    return out.toByteArray();
  }

  /** One event; a multi-line one has its JSON split over two data lines after a comma. */
  private static String event(String envelope, String text, boolean twoLines, String prefix) {
    String json = String.format(envelope, text);
    int comma = json.indexOf(',');
    if (twoLines && comma > 0) return prefix + json.substring(0, comma + 1) + "\n" + prefix + json.substring(comma + 1) + "\n\n";
    return prefix + json + "\n\n";
  }

  private static String broken(Random random, String envelope) {
    String json = String.format(envelope, quoted("ok"));
    return switch (random.nextInt(5)) {
      case 0 -> "data: " + json.substring(0, json.length() / 2) + "\n\n";
      case 1 -> "data: " + json + "}\n\n";
      case 2 -> "data: " + json + " 1\n\n";
      case 3 -> "data: [DON\n\n";
      default -> "data: 42\n\n";
    };
  }

  /**
   * A string as it stands in JSON, quotes included, one char a byte (streams are written as ISO-8859-1, so
   * that bytes which are not UTF-8 can be written too): mostly plain words, often escapes and UTF-8 text
   * such as a code or Chinese answer has, sometimes anything else.
   */
  private static String text(Random random) {
    return switch (random.nextInt(60)) {
      case 0 -> quoted("say \\\"hi\\\"");
      case 1 -> quoted("a\\nb\\\\c\\/d\\b\\f\\r\\t");
      case 2 -> quoted("caf\\u00e9 \\u00E9\\u4e2d");
      case 3, 4, 5 -> quoted(utf8("café 日本 😀 \u0800\uFFFD\uFFFF\u07FF"));
      case 6 -> quoted(utf8("    return n % 2 == 0\\n"));
      case 7 -> quoted("tab\there");
      case 8 -> quoted("del\u007F");
      case 9 -> quoted("x".repeat(70_000));
      case 10 -> "null";
      case 11 -> "17";
      case 12 -> quoted("bad \u0001 byte");
      case 13 -> "\"unterminated";
      case 14 -> quoted("\\ud83d\\ude00 pair, \\ud800 lone high, \\udc00 lone low");
      case 15 -> quoted("bad hex \\u12G4, short \\u12");
      case 16 -> quoted("unknown escape \\x");
      case 17 -> quoted("ends in a backslash \\");
      case 18 -> quoted(NOT_UTF8[random.nextInt(NOT_UTF8.length)]);
      default -> quoted(random.nextInt(4) == 0 ? utf8(CJK[random.nextInt(CJK.length)]) : WORDS[random.nextInt(WORDS.length)]);
    };
  }

  private static final String[] CJK = {"巴黎", "是", "法国的首都", "。", "😀", "é"};

  /** Bytes that are not well-formed UTF-8, one char a byte: Jackson must be the one to refuse them. */
  private static final String[] NOT_UTF8 = {
      "\u00C0\u0080", "\u00C1\u00BF", "\u00E0\u0080\u0080", "\u00ED\u00A0\u0080", "\u00F0\u0080\u0080\u0080",
      "\u00F4\u0090\u0080\u0080", "\u00F5\u0080\u0080\u0080", "\u00FF", "\u0080", "ab\u00E6\u0097", "\u00E6\u0097\u00A5\u0080",
      "\u00C3", "\u00E2\u0082", "\u00F0\u009F\u0098", "\u00E6\u0097A", "\u00F0\u009F\u0098A", "\u00E6\u0097\u00E6\u0097\u00A5",
  };

  /** {@code text}'s UTF-8 bytes, one char a byte. */
  private static String utf8(String text) {
    return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private static String quoted(String text) {
    return "\"" + text + "\"";
  }

  /** Read ends: mostly small and odd, so events split everywhere; sometimes one read for the whole body. */
  private static int[] reads(Random random, int length) {
    if (random.nextInt(5) == 0) return new int[] {length};
    int max = 1 + random.nextInt(switch (random.nextInt(3)) {
      case 0 -> 40;
      case 1 -> 600;
      default -> 6000;
    });
    int[] ends = new int[length];
    int n = 0;
    for (int at = 0; at < length; ) {
      at = Math.min(length, at + 1 + random.nextInt(max));
      ends[n++] = at;
    }
    return Arrays.copyOf(ends, n);
  }

  // ---- reading ----

  /**
   * Every field of a trace (its {@link TraceFields}, the token chunks' arrays expanded), one a line, but the
   * wall-clock start: a trace has no equals, and this diffs well.
   */
  static String fields(RequestTrace trace) {
    Object fields = read(trace, RequestTrace.class, "f");
    StringBuilder s = new StringBuilder();
    for (Field field : TraceFields.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) || field.getName().equals("startedAt")) continue;
      Object value = read(fields, TraceFields.class, field.getName());
      if (value instanceof TokenChunks chunks) {
        for (Field c : TokenChunks.class.getDeclaredFields()) {
          if (Modifier.isStatic(c.getModifiers())) continue;
          s.append(field.getName()).append('.').append(c.getName()).append(" = ").append(text(read(chunks, TokenChunks.class,
              c.getName()))).append('\n');
        }
      } else {
        s.append(field.getName()).append(" = ").append(text(value)).append('\n');
      }
    }
    return s.toString();
  }

  private static Object read(Object of, Class<?> type, String name) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return field.get(of);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Object text(Object value) {
    return value instanceof long[] a ? Arrays.toString(a) : value instanceof int[] a ? Arrays.toString(a) : value;
  }

  private record Reading(RequestTrace trace, int shortcutEvents) {}

  /**
   * Reads the body as a transport would: each read lands in one reused buffer at an offset, which is
   * overwritten with later bytes of the body once the parser has returned, so bytes kept past their read
   * are caught.
   */
  private static Reading read(byte[] body, int[] reads, boolean shortcut) {
    StreamRecorder recorder = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    recorder.headers(200, 1, true);
    ChatStreamParser parser = shortcut ? ChatStreamParser.eventStream(recorder)
        : ChatStreamParser.eventStreamWithoutShortcut(recorder);
    byte[] buffer = new byte[body.length + 16];
    int from = 0;
    long time = 1000;
    for (int to : reads) {
      int offset = (int) (time % 16);
      System.arraycopy(body, from, buffer, offset, to - from);
      boolean more = parser.feed(buffer, offset, offset + to - from, time++);
      // A pooled buffer is reused for the next read: what was kept from this one now reads as other bytes.
      for (int i = offset, j = to; i < offset + to - from; i++, j++) buffer[i] = body[j % body.length];
      if (!more) break;
      from = to;
    }
    return new Reading(parser.finish(time), parser.shortcutEvents());
  }
}
