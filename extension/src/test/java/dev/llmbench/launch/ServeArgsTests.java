package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A candidate's serve parameters on its command line, as vllm bench sweep serve's apply_to_cmd puts them. */
class ServeArgsTests {

  private static final List<String> VLLM = List.of("vllm", "serve", "Qwen/Qwen2.5-7B", "--max-num-seqs", "128", "--port", "8131");

  private static Map<String, String> params(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
    return m;
  }

  @Test
  void aFlagTheCommandHasGetsItsValueReplacedAnotherIsAppended() {
    assertThat(ServeArgs.apply(VLLM, params("max-num-seqs", "64", "max_num_batched_tokens", "4096")))
        .containsExactly("vllm", "serve", "Qwen/Qwen2.5-7B", "--max-num-seqs", "64", "--port", "8131",
            "--max-num-batched-tokens", "4096");
  }

  @Test
  void booleansAreTheFlagOrItsNoFormAndAnEmptyValueLeavesItOut() {
    assertThat(ServeArgs.apply(VLLM, params("enable-prefix-caching", "true")))
        .endsWith("--port", "8131", "--enable-prefix-caching");
    assertThat(ServeArgs.apply(List.of("vllm", "serve", "m", "--enable-prefix-caching"), params("enable-prefix-caching", "false")))
        .containsExactly("vllm", "serve", "m", "--no-enable-prefix-caching");
    assertThat(ServeArgs.apply(List.of("python", "-m", "sglang.launch_server", "--disable-radix-cache"),
        params("disable-radix-cache", ""))).containsExactly("python", "-m", "sglang.launch_server");
  }

  @Test
  void aShortFlagStaysAsWrittenAndAPlaceholderTakesTheValueInPlace() {
    assertThat(ServeArgs.apply(List.of("llama-server", "-m", "${model}", "-np", "1"), params("model", "/m/q4_0.gguf", "-np", "4")))
        .containsExactly("llama-server", "-m", "/m/q4_0.gguf", "-np", "4");
  }
}
