package dev.llmbench.internal.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.format.Formats;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the run-wide files Allure reads from its results folder when the run ends:
 * {@code environment.properties} (endpoints without credentials, each said to be the embedded simulator or a real
 * server, models, server versions, deployments; the run's date and duration, the client machine, JVM, extension
 * version), {@code executor.json} and {@code categories.json} (from {@code allure-config/}, or the copy
 * bundled in the extension). Writes nothing when there is no results folder, i.e. Allure is not in use.
 */
final class AllureRunFiles {

  static final String BUNDLED_CATEGORIES = "/META-INF/llmbench/allure/categories.json";

  /** The keys of one endpoint, unprefixed when the file names one endpoint. */
  private static final Set<String> ENDPOINT_FIELDS = Set.of("endpoint", "server", "model", "api", "embedded_profile",
      "server_version", "deployment");
  private static final Pattern NUMBERED = Pattern.compile(
      "endpoint_(\\d+)_(endpoint|server|model|api|embedded_profile|server_version|deployment)");
  /** File locks belong to the whole JVM (a second one in it throws), so its writers take turns here first. */
  private static final Object IN_THIS_JVM = new Object();

  private final Path resultsDir;
  private final Optional<Path> configDir;
  private final Set<EndpointInfo> endpoints = new LinkedHashSet<>();
  /** What the suites said of their deployments ({@code @DeploymentFacts}), each once. */
  private final Set<String> deployments = new LinkedHashSet<>();
  /** When the run began: the reports were made with it. */
  private final Instant started = Instant.now();

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

  synchronized void deploymentDescribed(String description) {
    deployments.add(description);
  }

  /** The environment entries, in a stable order. */
  synchronized Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    numbered(endpoints.stream().map(AllureRunFiles::fields).toList(), env);
    // What was measured, when and from where, as each sweep's page says it.
    env.put("run_date", MeasuredFacts.date(started));
    env.put("run_duration", Formats.duration(Duration.between(started, Instant.now())));
    if (!deployments.isEmpty()) env.put("deployment_facts", String.join("; ", deployments));
    env.put("client_machine", MeasuredFacts.clientMachine());
    env.put("JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    env.put("LLMBench", version());
    return env;
  }

  /** One endpoint's entries, without the {@code endpoint_N_} prefix. */
  private static Map<String, String> fields(EndpointInfo e) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("endpoint", e.url());
    f.put("server", e.embedded().isPresent() ? "the embedded simulator, not a real server" : "a real server");
    f.put("model", e.model());
    f.put("api", e.api().name().toLowerCase(Locale.ROOT));
    e.embedded().ifPresent(p -> f.put("embedded_profile", p));
    e.serverVersion().ifPresent(v -> f.put("server_version", v));
    e.deployment().ifPresent(d -> f.put("deployment", d));
    return f;
  }

  private static List<String> identity(Map<String, String> endpoint) {
    return List.of(endpoint.getOrDefault("endpoint", ""), endpoint.getOrDefault("model", ""), endpoint.getOrDefault("api", ""),
        endpoint.getOrDefault("deployment", ""));
  }

  /** Puts the endpoints' entries into {@code env}: unprefixed for one, {@code endpoint_1_...} onwards for several. */
  private static void numbered(List<Map<String, String>> groups, Map<String, String> env) {
    int i = 0;
    for (Map<String, String> g : groups) {
      String prefix = groups.size() == 1 ? "" : "endpoint_" + (++i) + "_";
      g.forEach((k, v) -> env.put(prefix + k, v));
    }
  }

  /**
   * This JVM's entries merged into what another JVM writing the same results folder (surefire forks, a user's own
   * forks) already wrote: every endpoint either saw, each once, then the other keys, this JVM's winning.
   */
  synchronized Map<String, String> mergedWith(Properties existing) {
    Map<Integer, Map<String, String>> theirs = new TreeMap<>();
    Map<String, String> rest = new TreeMap<>();
    for (String key : existing.stringPropertyNames()) {
      Matcher m = NUMBERED.matcher(key);
      if (m.matches()) {
        theirs.computeIfAbsent(Integer.parseInt(m.group(1)), n -> new LinkedHashMap<>()).put(m.group(2), existing.getProperty(key));
      } else if (ENDPOINT_FIELDS.contains(key)) {
        theirs.computeIfAbsent(0, n -> new LinkedHashMap<>()).put(key, existing.getProperty(key));
      } else {
        rest.put(key, existing.getProperty(key));
      }
    }
    // One endpoint is its URL, model, API and deployment: a file of another version may lack a field this one writes.
    Map<List<String>, Map<String, String>> groups = new LinkedHashMap<>();
    theirs.values().forEach(g -> groups.put(identity(g), g));
    endpoints.forEach(e -> groups.merge(identity(fields(e)), fields(e), (a, b) -> {
      Map<String, String> both = new LinkedHashMap<>(a);
      both.putAll(b);
      return both;
    }));
    Map<String, String> env = new LinkedHashMap<>();
    numbered(List.copyOf(groups.values()), env);
    env.putAll(rest);
    environment().forEach((k, v) -> {
      if (!ENDPOINT_FIELDS.contains(k) && !NUMBERED.matcher(k).matches()) env.put(k, v);
    });
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
      writeEnvironment();
      replace("executor.json", executor().getBytes(StandardCharsets.UTF_8));
      Optional<Path> custom = configDir.map(d -> d.resolve("categories.json")).filter(Files::isRegularFile);
      try (InputStream in = custom.isPresent() ? Files.newInputStream(custom.get())
          : AllureRunFiles.class.getResourceAsStream(BUNDLED_CATEGORIES)) {
        if (in != null) replace("categories.json", in.readAllBytes());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write Allure run files into " + resultsDir, e);
    }
  }

  /**
   * Merges into {@code environment.properties} under a file lock, which other JVMs of the same results folder respect
   * (a lock is the JVM's, so threads of one JVM queue on {@link #IN_THIS_JVM} first), then replaces it by an atomic
   * move, so that Allure never reads half a file.
   */
  private void writeEnvironment() throws IOException {
    Path file = resultsDir.resolve("environment.properties");
    synchronized (IN_THIS_JVM) {
      try (FileChannel lock = FileChannel.open(resultsDir.resolve(".environment.properties.lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock held = lock.lock()) {
        Properties existing = new Properties();
        if (Files.isRegularFile(file)) {
          try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            existing.load(in);
          }
        }
        StringBuilder props = new StringBuilder();
        mergedWith(existing).forEach((k, v) -> props.append(k).append('=').append(escape(v)).append('\n'));
        replace(file.getFileName().toString(), props.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * Replaces a file of the results folder by an atomic move of a complete temp file: another JVM writing it at the
   * same time (a copy with REPLACE_EXISTING deletes, then creates, and fails when the other created it in between)
   * and Allure reading it see the old file or the new one, never a part.
   */
  private void replace(String name, byte[] content) throws IOException {
    Path temp = Files.createTempFile(resultsDir, "." + name, ".tmp");
    try {
      Files.write(temp, content);
      Files.move(temp, resultsDir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
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
