package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.EndpointInfo;
import dev.llmbench.client.ApiStyle;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** environment.properties when several JVMs (surefire forks, a user's own) share one results folder. */
class AllureRunFilesTests {

  @TempDir
  Path results;

  @Test
  void twoWritersOfOneResultsFolderAtOnceLeaveBothsEndpointsInTheFile() throws Exception {
    List<AllureRunFiles> writers = new ArrayList<>();
    for (int i = 1; i <= 8; i++) writers.add(writerOf("http://127.0.0.1:" + (9000 + i) + "/", "model-" + i));
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<Void>> done = writers.stream().map(w -> CompletableFuture.runAsync(() -> {
      try {
        start.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      w.write();
    })).toList();
    start.countDown();
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);

    Properties env = read();
    List<String> urls = new ArrayList<>();
    for (int i = 1; i <= 8; i++) urls.add(env.getProperty("endpoint_" + i + "_endpoint"));
    assertThat(urls).as(env.toString()).containsExactlyInAnyOrder(
        "http://127.0.0.1:9001/", "http://127.0.0.1:9002/", "http://127.0.0.1:9003/", "http://127.0.0.1:9004/",
        "http://127.0.0.1:9005/", "http://127.0.0.1:9006/", "http://127.0.0.1:9007/", "http://127.0.0.1:9008/");
    assertThat(env).containsKeys("JVM", "LLMBench").doesNotContainKey("endpoint_9_endpoint");
    try (var left = Files.list(results)) {
      assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp"))).isEmpty();
    }
  }

  @Test
  void aSecondJvmWritingTheSameFolderAtTheSameTimeKeepsBothJvmsEndpoints() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process other = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        OtherJvm.class.getName(), results.toString()).redirectErrorStream(true).start();
    for (int i = 1; i <= 4; i++) writerOf("http://127.0.0.1:" + (9000 + i) + "/", "here-" + i).write();
    assertThat(other.waitFor(2, TimeUnit.MINUTES)).as("the other JVM ended").isTrue();
    assertThat(other.exitValue()).as(new String(other.getInputStream().readAllBytes())).isZero();

    Properties env = read();
    List<String> models = new ArrayList<>();
    for (int i = 1; i <= 8; i++) models.add(env.getProperty("endpoint_" + i + "_model"));
    assertThat(models).as(env.toString()).containsExactlyInAnyOrder(
        "here-1", "here-2", "here-3", "here-4", "there-5", "there-6", "there-7", "there-8");
  }

  /** The other JVM: four writers, one after another, of endpoints 5 to 8. */
  static final class OtherJvm {
    public static void main(String[] args) {
      for (int i = 5; i <= 8; i++) {
        AllureRunFiles files = new AllureRunFiles(Path.of(args[0]), Optional.empty());
        files.endpointReady(endpoint("http://127.0.0.1:" + (9000 + i) + "/", "there-" + i));
        files.write();
      }
    }
  }

  @Test
  void aWriterKeepsWhatAnotherWroteAndNamesAnEndpointBothSawOnce() throws IOException {
    Files.writeString(results.resolve("environment.properties"),
        "endpoint=http://127.0.0.1:9001/\nmodel=a\napi=chat\nshards=2\nJVM=other\n");
    AllureRunFiles second = writerOf("http://127.0.0.1:9002/", "b");
    second.endpointReady(endpoint("http://127.0.0.1:9001/", "a"));
    second.write();

    Properties env = read();
    assertThat(env.getProperty("endpoint_1_endpoint")).isEqualTo("http://127.0.0.1:9001/");
    assertThat(env.getProperty("endpoint_1_model")).isEqualTo("a");
    assertThat(env.getProperty("endpoint_2_endpoint")).isEqualTo("http://127.0.0.1:9002/");
    assertThat(env.getProperty("endpoint_2_model")).isEqualTo("b");
    assertThat(env).doesNotContainKeys("endpoint", "model", "endpoint_3_endpoint").containsEntry("shards", "2");
    assertThat(env.getProperty("JVM")).isNotEqualTo("other");
  }

  private AllureRunFiles writerOf(String url, String model) {
    AllureRunFiles files = new AllureRunFiles(results, Optional.empty());
    files.endpointReady(endpoint(url, model));
    return files;
  }

  private static EndpointInfo endpoint(String url, String model) {
    return new EndpointInfo(url, model, ApiStyle.CHAT, Optional.empty(), Optional.empty(), Duration.ZERO, List.of());
  }

  private Properties read() throws IOException {
    Properties env = new Properties();
    try (Reader in = Files.newBufferedReader(results.resolve("environment.properties"))) {
      env.load(in);
    }
    return env;
  }
}
