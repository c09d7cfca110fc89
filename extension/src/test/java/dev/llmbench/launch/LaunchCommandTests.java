package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command as annotations and one-line settings write it. */
class LaunchCommandTests {

  @Test
  void oneLineCommandSplitsAtWhitespaceAndKeepsQuotedWords() {
    LaunchCommand c = LaunchCommand.parse("  python -m sglang.launch_server --model-path 'my models/llama 3' "
        + "--chat-template \"a \\\"quoted\\\" name\" --port ${port} it\\'s ''");
    assertThat(c.command()).containsExactly("python", "-m", "sglang.launch_server", "--model-path", "my models/llama 3",
        "--chat-template", "a \"quoted\" name", "--port", "${port}", "it's", "");
  }

  @Test
  void unclosedQuoteAndEmptyCommandAreErrorsThatSayWhy() {
    assertThatThrownBy(() -> LaunchCommand.parse("vllm serve 'model")).hasMessage("unclosed ' in: vllm serve 'model");
    assertThatThrownBy(() -> LaunchCommand.parse("   ")).hasMessageStartingWith("the launch command is empty");
  }

  @Test
  void environmentIsNameValueWords() {
    assertThat(LaunchCommand.parseEnvironment("CUDA_VISIBLE_DEVICES=0,1 HF_HOME='/data/hf cache' EMPTY="))
        .containsExactly(Map.entry("CUDA_VISIBLE_DEVICES", "0,1"), Map.entry("HF_HOME", "/data/hf cache"), Map.entry("EMPTY", ""));
    assertThatThrownBy(() -> LaunchCommand.parseEnvironment("HF_HOME=/x 1BAD=y"))
        .hasMessageStartingWith("'1BAD=y' is not NAME=value");
  }

  @Test
  void placeholdersAreFoundAndReplaced() {
    LaunchCommand c = LaunchCommand.of("llama-server", "--port", "${port}", "--host", "127.0.0.1")
        .withEnvironment(Map.of("LOG", "/tmp/server-${port}.log"));
    assertThat(c.placeholders()).containsExactly("port");
    LaunchCommand resolved = c.resolve(Map.of("port", "8123"));
    assertThat(resolved.command()).containsExactly("llama-server", "--port", "8123", "--host", "127.0.0.1");
    assertThat(resolved.environment()).containsEntry("LOG", "/tmp/server-8123.log");
    assertThat(resolved.placeholders()).isEmpty();
    assertThatThrownBy(() -> LaunchCommand.of("x", "${model}").resolve(Map.of("port", "1")))
        .hasMessage("the launch command uses ${model}, which has no value; known: [port]");
  }

  @Test
  void describeQuotesWhatAShellWouldNeedQuotedAndShowsNoEnvironment() {
    LaunchCommand c = LaunchCommand.of("sh", "-c", "echo 'hi'; exec server").withEnvironment(Map.of("HF_TOKEN", "secret"));
    assertThat(c.describe()).isEqualTo("sh -c 'echo '\\''hi'\\''; exec server'").doesNotContain("secret");
    assertThat(LaunchCommand.of("x", "y".repeat(400)).describe()).hasSize(303).endsWith("...");
  }

  @Test
  void freeLocalPortCanBeBound() throws IOException {
    int port = LaunchCommand.freeLocalPort();
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      assertThat(s.getLocalPort()).isEqualTo(port);
    }
  }

  @Test
  void commandListIsCopied() {
    List<String> args = new java.util.ArrayList<>(List.of("a", "b"));
    LaunchCommand c = new LaunchCommand(args, java.util.Optional.empty(), Map.of());
    args.add("c");
    assertThat(c.command()).containsExactly("a", "b");
  }
}
