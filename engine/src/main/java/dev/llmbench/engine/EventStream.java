package dev.llmbench.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The server-sent events of one streamed completion, with at most one {@link FaultKind} acted out on the
 * wire. Each event is one chunk, flushed at once.
 */
final class EventStream {

  /** Mid-stream faults act after this many events (the role chunk counts), or before the finish event. */
  static final int FAULT_AFTER_EVENTS = 3;
  static final int LONG_LINE_BYTES = 5 * 1024 * 1024;

  private static final String MARKER = "@@llmbench-invalid-utf8@@";
  /** The first two bytes of a three-byte sequence (U+20AC), cut short as a tokenizer split can leave it. */
  private static final byte[] INVALID_UTF8 = {(byte) 0xE2, (byte) 0x82};

  private final Exchange exchange;
  private final FaultKind fault;
  private final boolean chat;
  private final Runnable abandon;
  private final Consumer<FaultKind> injected;
  private final String eol;
  private Exchange.ChunkedBody body;
  private int sent;
  private boolean fired;

  /**
   * @param fault    a mid-stream fault, or null
   * @param abandon  called when the fault ends generation early, before the connection is acted on
   * @param injected told when the fault has been acted out, for the server's counters
   */
  EventStream(Exchange exchange, FaultKind fault, boolean chat, Runnable abandon, Consumer<FaultKind> injected) {
    if (fault != null && fault.beforeResponse()) throw new IllegalArgumentException(fault + " acts before any response");
    this.exchange = exchange;
    this.fault = fault;
    this.chat = chat;
    this.abandon = abandon;
    this.injected = injected;
    this.eol = fault == FaultKind.CRLF ? "\r\n" : "\n";
  }

  void open() throws IOException {
    String type = fault == FaultKind.JSONTYPE ? "application/json" : "text/event-stream";
    body = exchange.startChunked(200, type, "Cache-Control", "no-cache");
    if (fault == FaultKind.JSONTYPE) fire();
    if (fault == FaultKind.CRLF) {
      body.write((": llmbench comment before the first event" + eol + eol).getBytes(StandardCharsets.UTF_8));
      fire();
    }
  }

  /**
   * Writes one chunk of the completion. Returns false when a fault ended the stream here; the caller then
   * stops generating (generation was already abandoned).
   *
   * @param finishing whether this chunk carries the finish_reason
   */
  boolean chunk(ObjectNode chunk, boolean finishing) throws IOException {
    if (!fired && fault != null && (sent >= FAULT_AFTER_EVENTS || finishing)) {
      switch (fault) {
        case RESET -> {
          fire();
          abandon.run();
          exchange.resetNow();
          return false;
        }
        case CUT -> {
          fire();
          abandon.run();
          exchange.closeNow();
          return false;
        }
        case STALL -> {
          fire();
          abandon.run();
          exchange.goSilent();
          return false;
        }
        case MIDSTREAMERROR -> {
          fire();
          abandon.run();
          ObjectNode error = chunk.objectNode();
          error.putObject("error").put("message", "llmbench fault injection: generation failed mid-stream")
              .put("type", "internal_server_error").putNull("param").put("code", 500);
          write(error.toString());
          done();
          return false;
        }
        case BADJSON -> {
          fire();
          String json = chunk.toString();
          write(json.substring(0, json.length() / 2)); // a chunk cut in half: never valid JSON
        }
        case BADUTF8, LONGLINE -> {
          fire();
          if (finishing) { // no content in this one: corrupt an extra content chunk before it
            ObjectNode extra = chunk.deepCopy();
            setText(extra, "");
            ((ObjectNode) extra.withArray("choices").get(0)).putNull("finish_reason");
            writeCorrupted(extra);
          } else {
            writeCorrupted(chunk);
            return true;
          }
        }
        default -> {
          // CRLF, JSONTYPE and NODONE act on the whole stream
        }
      }
    }
    write(chunk.toString());
    return true;
  }

  private void writeCorrupted(ObjectNode chunk) throws IOException {
    if (fault == FaultKind.LONGLINE) {
      setText(chunk, text(chunk) + "x".repeat(LONG_LINE_BYTES));
      write(chunk.toString());
      return;
    }
    setText(chunk, text(chunk) + MARKER);
    byte[] json = chunk.toString().getBytes(StandardCharsets.UTF_8);
    byte[] marker = MARKER.getBytes(StandardCharsets.UTF_8);
    int at = indexOf(json, marker);
    ByteArrayOutputStream event = new ByteArrayOutputStream(json.length + 16);
    event.write(eventStart());
    event.write(json, 0, at);
    event.write(INVALID_UTF8);
    event.write(json, at + marker.length, json.length - at - marker.length);
    event.write(eventEnd());
    body.write(event.toByteArray());
    sent++;
  }

  private ObjectNode textHolder(ObjectNode chunk) {
    ObjectNode choice = (ObjectNode) chunk.withArray("choices").get(0);
    return chat ? (ObjectNode) choice.get("delta") : choice;
  }

  private String textField(ObjectNode holder) {
    if (!chat) return "text";
    return holder.has("reasoning_content") ? "reasoning_content" : "content";
  }

  private String text(ObjectNode chunk) {
    ObjectNode holder = textHolder(chunk);
    return holder.path(textField(holder)).asText("");
  }

  private void setText(ObjectNode chunk, String text) {
    ObjectNode holder = textHolder(chunk);
    holder.put(textField(holder), text);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) continue outer;
      }
      return i;
    }
    throw new IllegalStateException("marker not found");
  }

  /** Ends the stream: {@code data: [DONE]} (unless the fault is {@code nodone}) and the end of the body. */
  void done() throws IOException {
    if (fault == FaultKind.NODONE && !fired) fire();
    else write("[DONE]");
    body.finish();
  }

  private void write(String data) throws IOException {
    byte[] json = data.getBytes(StandardCharsets.UTF_8);
    byte[] start = eventStart();
    byte[] end = eventEnd();
    byte[] event = new byte[start.length + json.length + end.length];
    System.arraycopy(start, 0, event, 0, start.length);
    System.arraycopy(json, 0, event, start.length, json.length);
    System.arraycopy(end, 0, event, start.length + json.length, end.length);
    body.write(event);
    sent++;
  }

  private byte[] eventStart() {
    String comment = fault == FaultKind.CRLF ? ": llmbench comment line" + eol : "";
    return (comment + "data: ").getBytes(StandardCharsets.UTF_8);
  }

  private byte[] eventEnd() {
    return (eol + eol).getBytes(StandardCharsets.UTF_8);
  }

  private void fire() {
    fired = true;
    injected.accept(fault);
  }
}
