package dev.llmbench.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.spi.Features;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which given keys and variables are settings, and the nearest key to one that is not. */
class GivenSettingsTests {

  private static List<String> unknown(Map<String, String> configuration, Map<String, String> environment) {
    Map<String, String> sources = new LinkedHashMap<>();
    configuration.keySet().stream().sorted().forEach(k -> sources.put(k, "configuration parameter"));
    return GivenSettings.unknown(sources, k -> Optional.ofNullable(configuration.get(k)), environment, Features.settings())
        .stream().map(GivenSettings.Unknown::describe).toList();
  }

  @Test
  void everyKnownKeyAndItsVariablePass() {
    Map<String, String> configuration = new LinkedHashMap<>();
    Map<String, String> environment = new LinkedHashMap<>();
    Features.settings().forEach(s -> {
      configuration.put(s.key(), "x");
      environment.put(s.environmentVariable(), "x");
    });
    assertThat(unknown(configuration, environment)).isEmpty();
  }

  @Test
  void aVariableThatASettingNamesIsTheUsersOwn() {
    assertThat(unknown(Map.of("llmbench.api-key-env", "LLMBENCH_KEY", "llmbench.headers", "X-Gateway=${LLMBENCH_GATEWAY}"),
        Map.of("LLMBENCH_KEY", "k", "LLMBENCH_GATEWAY", "g", "LLMBENCH_HISTORY_PASSWORD", "p", "LLMBENCH_MODLE", "m",
            "PATH", "/bin"))).containsExactly("environment variable LLMBENCH_MODLE (did you mean LLMBENCH_MODEL?)");
  }

  @Test
  void theNearestKeyIgnoresCaseAndSeparators() {
    assertThat(unknown(Map.of("llmbench.baseUrl", "x", "llmbench.ready_timeout", "x", "llmbench.sweep.request", "x",
        "llmbench.embeded.profile", "x", "llmbench.hue", "x"), Map.of("llmbench_base_url", "x"))).containsExactly(
        "configuration parameter llmbench.baseUrl (did you mean llmbench.base-url?)",
        "configuration parameter llmbench.embeded.profile (did you mean llmbench.embedded.profile?)",
        "configuration parameter llmbench.hue (no key is near it)",
        "configuration parameter llmbench.ready_timeout (did you mean llmbench.ready.timeout?)",
        "configuration parameter llmbench.sweep.request (did you mean llmbench.sweep.requests?)",
        "environment variable llmbench_base_url (did you mean LLMBENCH_BASE_URL?)");
  }

  /** A key from junit-platform.properties says which file it came from (a stale copy in target/ keeps failing a run). */
  @Test
  void aPlatformPropertiesKeyNamesItsFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = dir.resolve("junit-platform.properties");
    java.nio.file.Files.writeString(file, "llmbench.baseurl=http://127.0.0.1:1\n");
    Thread thread = Thread.currentThread();
    ClassLoader original = thread.getContextClassLoader();
    try (java.net.URLClassLoader only = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, null)) {
      thread.setContextClassLoader(only);
      assertThat(GivenSettings.configurationKeys(Optional.empty())).containsEntry("llmbench.baseurl",
          "junit-platform.properties key (" + file.toUri().toURL().getPath() + ")");
    } finally {
      thread.setContextClassLoader(original);
    }
  }
}
