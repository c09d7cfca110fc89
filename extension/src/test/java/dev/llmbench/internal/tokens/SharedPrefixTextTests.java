package dev.llmbench.internal.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.Workload;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadPlan;
import org.junit.jupiter.api.Test;

class SharedPrefixTextTests {

  private final SharedPrefixText text = new SharedPrefixText(3, 2, 40, 8, 7);
  private final WorkloadPlan plan = new WorkloadPlan(4, 48, true, null, PromptSource.generated("gsp", 48, 7, text),
      Workload.PrefixCache.AVOID);

  @Test
  void requestsGoRoundTheGroupsAndShareTheirGroupsSystemPromptExactly() {
    CompletionRequest a = plan.request(0, 4, 11);
    CompletionRequest b = plan.request(3, 4, 11); // group 0's second question
    CompletionRequest c = plan.request(1, 4, 11); // group 1
    assertThat(text.group(0)).isZero();
    assertThat(text.group(3)).isZero();
    assertThat(text.group(1)).isOne();
    assertThat(a.messages().get(0).role()).isEqualTo("system");
    assertThat(b.messages().get(0).content()).isEqualTo(a.messages().get(0).content());
    assertThat(c.messages().get(0).content()).isNotEqualTo(a.messages().get(0).content());
    assertThat(a.messages().get(0).content().split(" ")).hasSize(40);
  }

  @Test
  void theUniqueMarkerGoesIntoTheQuestionAfterTheSharedSystemPrompt() {
    CompletionRequest first = plan.request(0, 4, 11);
    CompletionRequest again = plan.request(6, 4, 11); // the same question of the same group, a round later
    assertThat(again.messages().get(0)).isEqualTo(first.messages().get(0));
    assertThat(again.messages().get(1).content()).isNotEqualTo(first.messages().get(1).content());
    String question = text.messages(0).get(1).content();
    assertThat(first.messages().get(1).content()).matches("[0-9a-f]{8} " + java.util.regex.Pattern.quote(question));
  }

  @Test
  void lengthsBelowOneAreRejected() {
    assertThatThrownBy(() -> new SharedPrefixText(0, 2, 4, 4, 1)).hasMessageContaining("groups >= 1");
    assertThatThrownBy(() -> new SharedPrefixText(1, 2, 0, 4, 1)).hasMessageContaining("systemPromptTokens >= 1");
  }
}
