package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** What the recorder keeps of tool calls when an event's text is undone, and that marking an event allocates nothing. */
class StreamRecorderTests {

  private static void tool(StreamRecorder r, int index, boolean name, String text) {
    r.appendToolCall(index, name, text.toCharArray(), 0, text.length());
  }

  @Test
  void anUnfinishedEventLosesTheToolCallsAndPiecesItAddedAndKeepsWhatCameBefore() {
    StreamRecorder r = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    r.headers(200, 1, true);
    r.markEvent();
    tool(r, 0, true, "get_weather");
    r.markEvent();
    tool(r, 1, true, "get_time");
    tool(r, 1, false, "{}");
    r.markEvent(); // marks two calls
    tool(r, 0, false, "{\"city\":");
    tool(r, 2, true, "lost");
    r.dropEventText(); // back to the two calls as they were
    r.markEvent(); // marks two calls again, in the array the mark before used
    tool(r, 0, false, "{\"city\":\"Paris\"}");
    r.markEvent();
    tool(r, 1, false, "lost too");
    r.dropEventText();
    assertThat(r.finish(2, 0, null).toolCalls()).containsExactly(
        new RequestTrace.ToolCall("", "get_weather", "{\"city\":\"Paris\"}"), new RequestTrace.ToolCall("", "get_time", "{}"));
  }

  @Test
  void aCallThatCameInTheUndoneEventItselfIsDropped() {
    StreamRecorder r = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    r.headers(200, 1, true);
    r.markEvent(); // before any call: nothing to mark
    tool(r, 0, true, "lost");
    r.dropEventText();
    r.markEvent();
    tool(r, 0, true, "kept");
    assertThat(r.finish(2, 0, null).toolCalls()).containsExactly(new RequestTrace.ToolCall("", "kept", ""));
  }

  @Test
  void markingEventsOnceAStreamHasToolCallsAllocatesNothingPerEvent() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    StreamRecorder r = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    tool(r, 0, true, "a");
    tool(r, 1, true, "b");
    long id = Thread.currentThread().getId();
    int events = 100_000;
    r.markEvent();
    threads.getThreadAllocatedBytes(id); // its own first-call allocation out of the count
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < events; i++) r.markEvent();
    long bytes = threads.getThreadAllocatedBytes(id) - before;
    // A new int[4] an event would be 32 bytes each, 3.2 MB here; the mark array is kept instead.
    assertThat((double) bytes / events).as("bytes allocated per markEvent, %d in all", bytes).isLessThan(1.0);
  }
}
