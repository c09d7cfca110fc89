package dev.llmbench.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JsonReplyCheckTests {

  final ObjectMapper json = new ObjectMapper();

  @Test
  void parsesAWholeReplyOrOneFencedBlockAndNothingElse() {
    assertThat(JsonReplyCheck.check(" {\"a\": 1}\n", Optional.empty()).status()).isEqualTo(JsonReplyCheck.Status.PARSED_OK);
    assertThat(JsonReplyCheck.check("```json\n[1, 2]\n```", Optional.empty()).value()).hasValueSatisfying(v ->
        assertThat(v.size()).isEqualTo(2));
    assertThat(JsonReplyCheck.check("Sure! {\"a\": 1}", Optional.empty()).status()).isEqualTo(JsonReplyCheck.Status.PARSE_FAILED);
    assertThat(JsonReplyCheck.check("{\"a\": 1} trailing", Optional.empty()).status()).isEqualTo(JsonReplyCheck.Status.PARSE_FAILED);
    assertThat(JsonReplyCheck.check("", Optional.empty()).messages()).containsExactly("the reply is empty");
  }

  @Test
  void aSchemaMismatchSaysEveryWayItMisses() throws Exception {
    var schema = json.readTree("{\"type\": \"object\", \"required\": [\"name\", \"age\"], \"properties\": {\"age\": {\"type\": \"integer\"}}}");
    JsonReplyCheck.Result r = JsonReplyCheck.check("{\"age\": \"old\"}", Optional.of(schema));
    assertThat(r.status()).isEqualTo(JsonReplyCheck.Status.SCHEMA_MISMATCH);
    assertThat(r.messages()).hasSize(2).anySatisfy(m -> assertThat(m).contains("name")).anySatisfy(m -> assertThat(m).contains("integer"));
    assertThat(JsonReplyCheck.check("{\"name\": \"x\", \"age\": 3}", Optional.of(schema)).ok()).isTrue();
  }

  @Test
  void aSchemaThatIsNoneIsRejectedBeforeUse() throws Exception {
    assertThatThrownBy(() -> JsonReplyCheck.compile(json.readTree("[1]"))).hasMessageContaining("a JSON Schema is an object");
  }
}
