package dev.llmbench.internal.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.EndpointInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes the run-wide files Allure reads from its results folder when the run ends:
 * {@code environment.properties} (endpoints without credentials, models, server versions, JVM, extension
 * version), {@code executor.json} and {@code categories.json} (from {@code allure-config/}, or the copy
 * bundled in the extension). Writes nothing when there is no results folder, i.e. Allure is not in use.
 */
final class AllureRunFiles {

  static final String BUNDLED_CATEGORIES = "/META-INF/llmbench/allure/categories.json";

  private final Path resultsDir;
  private final Optional<Path> configDir;
  private final Set<EndpointInfo> endpoints = new LinkedHashSet<>();

  AllureRunFiles(Path resultsDir, Optional<Path> configDir) {
    this.resultsDir = resultsDir;
    this.configDir = configDir;
  }

  /** Whether Allure writes results in this run: its results folder exists once it wrote anything. */
  boolean inUse() {
    return Files.isDirectory(resultsDir);
  }

  synchronized void endpointReady(EndpointInfo info) {
    endpoints.add(info);
  }

  /** The environment entries, in a stable order. */
  synchronized Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    int i = 0;
    for (EndpointInfo e : endpoints) {
      String prefix = endpoints.size() == 1 ? "" : "endpoint_" + (++i) + "_";
      env.put(prefix + "endpoint", e.url());
      env.put(prefix + "model", e.model());
      env.put(prefix + "api", e.api().name().toLowerCase(Locale.ROOT));
      e.embedded().ifPresent(p -> env.put(prefix + "embedded_profile", p));
      e.serverVersion().ifPresent(v -> env.put(prefix + "server_version", v));
    }
    env.put("JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    env.put("LLMBench", version());
    return env;
  }

  static String version() {
    try (InputStream in = AllureRunFiles.class.getResourceAsStream("/META-INF/llmbench/version.properties")) {
      Properties p = new Properties();
      if (in != null) p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Writes the files, once every endpoint is known. */
  void write() {
    if (!inUse()) return;
    try {
      StringBuilder props = new StringBuilder();
      environment().forEach((k, v) -> props.append(k).append('=').append(escape(v)).append('\n'));
      Files.writeString(resultsDir.resolve("environment.properties"), props);
      Files.writeString(resultsDir.resolve("executor.json"), executor());
      Optional<Path> custom = configDir.map(d -> d.resolve("categories.json")).filter(Files::isRegularFile);
      try (InputStream in = custom.isPresent() ? Files.newInputStream(custom.get())
          : AllureRunFiles.class.getResourceAsStream(BUNDLED_CATEGORIES)) {
        if (in != null) Files.copy(in, resultsDir.resolve("categories.json"), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write Allure run files into " + resultsDir, e);
    }
  }

  private static String executor() throws IOException {
    Map<String, String> env = new TreeMap<>(System.getenv());
    ObjectNode node = new ObjectMapper().createObjectNode();
    if (env.containsKey("GITHUB_RUN_ID")) {
      String server = env.getOrDefault("GITHUB_SERVER_URL", "https://github.com");
      node.put("name", "GitHub Actions").put("type", "github")
          .put("buildName", env.getOrDefault("GITHUB_WORKFLOW", "ci") + " #" + env.getOrDefault("GITHUB_RUN_NUMBER", "?"))
          .put("buildUrl", server + "/" + env.getOrDefault("GITHUB_REPOSITORY", "") + "/actions/runs/" + env.get("GITHUB_RUN_ID"));
    } else {
      node.put("name", env.containsKey("CI") ? "CI (.ci/run)" : "local run").put("type", "maven")
          .put("buildName", "LLMBench " + version());
    }
    return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(node);
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\n", "\\n");
  }
}
