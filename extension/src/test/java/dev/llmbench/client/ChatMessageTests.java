package dev.llmbench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A chat message: a role and its text, and the tool calls an assistant made or the call a tool's message answers. */
class ChatMessageTests {

  private static final ChatMessage.ToolCall CALL = new ChatMessage.ToolCall("call_1", "run_tests", "{}");

  @Test
  void aMessageOfARoleAndTextAloneCarriesNoCallAndEqualsItsWholeForm() {
    assertThat(ChatMessage.user("hi")).isEqualTo(new ChatMessage("user", "hi", List.of(), null));
    assertThat(new ChatMessage("assistant", "ok").toolCalls()).isEmpty();
    assertThat(new ChatMessage("assistant", "ok").toolCallId()).isNull();
  }

  @Test
  void anAssistantKeepsItsCallsAndAToolMessageTheIdItAnswers() {
    ChatMessage reply = ChatMessage.assistant("", List.of(CALL));
    assertThat(reply.role()).isEqualTo("assistant");
    assertThat(reply.toolCalls()).containsExactly(CALL);
    ChatMessage answer = ChatMessage.tool("call_1", "2 failed");
    assertThat(answer).isEqualTo(new ChatMessage("tool", "2 failed", List.of(), "call_1"));
    assertThat(reply.withContent("Running them.")).isEqualTo(ChatMessage.assistant("Running them.", List.of(CALL)));
  }

  @Test
  void callsOnAMessageNotTheAssistantsAndACallIdOnOneNotAToolsAreRefused() {
    assertThatThrownBy(() -> new ChatMessage("user", "x", List.of(CALL), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("only an assistant's message carries tool calls, not one of role user");
    assertThatThrownBy(() -> new ChatMessage("assistant", "x", List.of(), "call_1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("only a tool's message answers a tool call, not one of role assistant");
    assertThatThrownBy(() -> new ChatMessage.ToolCall(null, "f", "{}")).isInstanceOf(NullPointerException.class)
        .hasMessage("id");
  }
}
