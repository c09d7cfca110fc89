package dev.llmbench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.internal.client.RequestTrace;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a request's tools and response format ask of its reply, and the verdict on replies that give it or not. */
class ReplyCheckTests {

  private static final String WEATHER = "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":"
      + "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},\"days\":{\"type\":\"integer\"}},"
      + "\"required\":[\"city\"]}}}]";

  private static RequestTrace call(String name, String arguments) {
    return RequestTrace.builder().times(0, 0, 10).token(5, true, false).toolCall(name, arguments).finishReason("tool_calls")
        .build();
  }

  private static RequestTrace answer(String text) {
    return RequestTrace.builder().times(0, 0, 10).token(5, true, false).text(text, "").finishReason("stop").build();
  }

  @Test
  void toolCallArgumentsAreJudgedAgainstTheirToolsParameters() {
    ReplyCheck check = ReplyCheck.of(Map.of("tools", WEATHER));
    assertThat(check.judge(call("get_weather", "{\"city\": \"Paris\", \"days\": 3}")).replyUnparsed()).isFalse();
    assertThat(check.judge(call("get_weather", "{\"city\": \"Paris\", \"days\": 3}")).replyChecked()).isTrue();
    RequestTrace cut = check.judge(call("get_weather", "{\"city\": \"Par"));
    assertThat(cut.replyUnparsed()).isTrue();
    assertThat(cut.replyProblem().orElseThrow()).startsWith("tool call 'get_weather': its arguments are not JSON")
        .as("where Jackson read it is left out, so that equal faults group").doesNotContain("start marker", "Source");
    assertThat(check.judge(call("get_weather", "{\"days\": \"three\"}")).replyProblem().orElseThrow())
        .startsWith("tool call 'get_weather': its arguments miss the tool's parameters:").contains("city").contains("days");
    assertThat(check.judge(call("get_weather", "[1]")).replyProblem().orElseThrow()).contains("not a JSON object");
    assertThat(check.judge(call("send_mail", "{}")).replyProblem().orElseThrow())
        .isEqualTo("tool call 'send_mail' names no tool of the request (get_weather)");
  }

  @Test
  void aTextAnswerIsCheckedOnlyWhenTheChoiceRequiresACall() {
    assertThat(ReplyCheck.of(Map.of("tools", WEATHER)).judge(answer("It is sunny.")).replyChecked()).isFalse();
    RequestTrace t = ReplyCheck.of(Map.of("tools", WEATHER, "tool_choice", "\"required\"")).judge(answer("It is sunny."));
    assertThat(t.replyUnparsed()).isTrue();
    assertThat(t.replyProblem()).contains("no tool call, though tool_choice requires one");
    assertThat(ReplyCheck.of(Map.of("tools", WEATHER, "tool_choice", "\"none\"")).checks()).isFalse();
  }

  @Test
  void aJsonAnswerParsesAndMatchesItsSchema() {
    ReplyCheck object = ReplyCheck.of(Map.of("response_format", "{\"type\":\"json_object\"}"));
    assertThat(object.judge(answer("```json\n{\"a\": 1}\n```")).replyUnparsed()).isFalse();
    assertThat(object.judge(answer("{\"a\": 1} and more")).replyProblem().orElseThrow()).startsWith("the answer is not JSON");
    ReplyCheck schema = ReplyCheck.of(Map.of("response_format", "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"r\","
        + "\"schema\":{\"type\":\"object\",\"required\":[\"colours\"]}}}"));
    assertThat(schema.judge(answer("{\"colours\": []}")).replyUnparsed()).isFalse();
    assertThat(schema.judge(answer("{\"shapes\": []}")).replyProblem().orElseThrow()).startsWith("the answer misses its schema")
        .contains("colours");
  }

  @Test
  void aFailedRequestIsNeverJudged() {
    RequestTrace failed = RequestTrace.builder().times(0, 0, 10)
        .failure(new dev.llmbench.client.RequestFailure(dev.llmbench.client.ErrorKind.HTTP_STATUS, 500, "boom")).build();
    assertThat(ReplyCheck.of(Map.of("tools", WEATHER)).judge(failed).replyChecked()).isFalse();
  }

  @Test
  void fieldsThatAreNotJsonOrNotSchemasAreRefusedNamingTheField() {
    assertThatThrownBy(() -> ReplyCheck.of(Map.of("tools", "[{\"type\":")))
        .hasMessageStartingWith("\"tools\" is not JSON");
    assertThatThrownBy(() -> ReplyCheck.of(Map.of("tools", "[{\"type\":\"function\",\"function\":{\"name\":\"f\","
        + "\"parameters\":{\"type\":\"objekt\"}}}]")))
        .hasMessageStartingWith("tools[0].function.parameters (tool 'f'): it is not a JSON Schema: ").hasMessageContaining("type");
    assertThatThrownBy(() -> ReplyCheck.of(Map.of("tools", "[{\"type\":\"function\",\"function\":{\"parameters\":{}}}]")))
        .hasMessageStartingWith("tools[0].function.name is missing");
    assertThatThrownBy(() -> ReplyCheck.of(Map.of("tools", WEATHER, "tool_choice", "{\"type\":\"function\",\"function\":"
        + "{\"name\":\"nope\"}}"))).hasMessage("\"tool_choice\" names 'nope', which is none of the tools (get_weather)");
    assertThatThrownBy(() -> ReplyCheck.of(Map.of("response_format", "{\"type\":\"xml\"}")))
        .hasMessageContaining("type 'xml' is none of text, json_object, json_schema");
  }
}
