package dev.llmbench.internal.report;

import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a sweep measured and from where, as its page and its Allure summary show it first: the date and duration,
 * the server (the embedded engine named as a simulator) and its version, the model, the deployment and the client
 * machine that sent the load.
 */
final class MeasuredFacts {

  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z", Locale.ROOT);

  private MeasuredFacts() {}

  /** The rows, name to text, in the order a reader asks: when, what, on what, from where. */
  static Map<String, String> of(SweepSummary summary) {
    Map<String, String> rows = new LinkedHashMap<>();
    rows.put("date", date(summary.started()));
    rows.put("duration", Formats.duration(Duration.between(summary.started(), summary.ended())));
    List<EndpointInfo> endpoints = summary.levels().stream().map(MeasuredLevel::endpoint)
        .filter(distinctBy(EndpointInfo::reportName)).toList();
    rows.put("server", String.join("; ", endpoints.stream().map(MeasuredFacts::server).distinct().toList()));
    rows.put("server version", String.join("; ", endpoints.stream()
        .map(e -> e.serverVersion().orElse(e.embedded().isPresent() ? "LLMBench's embedded engine " + AllureRunFiles.version()
            : "not reported by the server")).distinct().toList()));
    rows.put("model", String.join("; ", endpoints.stream().map(EndpointInfo::model).distinct().toList()));
    List<String> deployment = new ArrayList<>();
    endpoints.stream().map(EndpointInfo::deployment).flatMap(Optional::stream).distinct().forEach(deployment::add);
    summary.deployment().ifPresent(d -> deployment.add(d.describe()));
    rows.put("deployment", deployment.isEmpty() ? "not described (@DeploymentFacts describes it)" : String.join("; ", deployment));
    rows.put("client machine", clientMachine());
    return rows;
  }

  /** {@code http://gpu-1:8000}, or the embedded engine said to be a simulator. */
  static String server(EndpointInfo e) {
    return e.embedded().map(p -> "the embedded simulator (profile '" + p + "', " + e.url() + "), not a real server")
        .orElse(e.url());
  }

  static String date(Instant at) {
    return DATE.format(at.atZone(ZoneId.systemDefault()));
  }

  /**
   * The machine that sent the load: its name, OS, cores and JVM. Its name from the environment or
   * {@code /etc/hostname}, never a DNS lookup, which can hang on a machine without one.
   */
  static String clientMachine() {
    return host() + " (" + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", LLMBench "
        + AllureRunFiles.version() + ")";
  }

  static String host() {
    for (String name : List.of("HOSTNAME", "COMPUTERNAME")) {
      String v = System.getenv(name);
      if (v != null && !v.isBlank()) return v.strip();
    }
    try {
      String v = Files.readString(Path.of("/etc/hostname")).strip();
      if (!v.isEmpty()) return v;
    } catch (IOException | RuntimeException e) {
      // No such file on this OS: the name is left unknown.
    }
    return "unnamed host";
  }

  private static <T> Predicate<T> distinctBy(Function<T, Object> key) {
    Set<Object> seen = new HashSet<>();
    return t -> seen.add(key.apply(t));
  }
}
