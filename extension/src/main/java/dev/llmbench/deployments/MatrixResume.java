package dev.llmbench.deployments;

import static dev.llmbench.deployments.DeploymentKeys.RESUME_DIR;

import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.SettingKeys;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.SweepSetup;
import java.lang.annotation.Annotation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Opens the ledger of a sweep whose deployments include candidates the suite launches: where it lives, and the
 * fingerprints that say whether an earlier run's measurements still hold (the sweep's annotations, levels and
 * settings; each candidate's launch, model and API).
 */
final class MatrixResume {

  /** Settings that change where reports go or how progress shows, not what is measured. */
  private static final Set<String> NOT_MEASURED = Set.of("llmbench.report.dir", "llmbench.progress", "llmbench.progress.interval",
      "llmbench.history.file", "llmbench.allure.config", RESUME_DIR.key(), "llmbench.deployments", "llmbench.ready.timeout",
      "llmbench.ready.poll-interval", "llmbench.ready.progress-interval");

  private MatrixResume() {}

  /** @throws IllegalArgumentException naming the resume folder at fault and the fix */
  static Optional<CandidateLedger> open(SweepSetup setup, List<DeploymentSpec> deployments) {
    if (setup.kind() != SweepSetup.Kind.SWEEP || setup.sharded()) return Optional.empty();
    ExtensionContext context = setup.context();
    Map<String, String> candidates = new LinkedHashMap<>();
    for (DeploymentSpec d : deployments) {
      if (d.baseUrl().isPresent() || d.profile().isPresent()) continue;
      Optional<ServerStart> server = Features.all().stream().map(f -> f.server(context, d)).flatMap(Optional::stream).findFirst();
      server.ifPresent(s -> candidates.put(d.name(), CandidateLedger.fingerprint(s + " " + d)));
    }
    if (candidates.isEmpty()) return Optional.empty();
    Settings settings = Settings.of(context);
    Optional<String> configured = settings.get(RESUME_DIR).optional().filter(t -> !t.isBlank());
    if (configured.filter(t -> t.equals("off")).isPresent()) return Optional.empty();
    String matrix = setup.sweep().className() + "." + setup.sweep().method();
    Path dir = configured.map(Path::of).orElseGet(() -> settings.get(SettingKeys.REPORT_DIR).value().resolve("candidates")
        .resolve(matrix));
    Map<String, List<String>> labels = new LinkedHashMap<>();
    for (String c : candidates.keySet()) {
      labels.put(c, setup.levels().stream().map(l -> l.label() + ByDeployment.SEPARATOR + c).toList());
    }
    CandidateLedger ledger = CandidateLedger.open(dir, matrix, CandidateLedger.fingerprint(sweep(setup)), candidates, labels);
    if (!ledger.reused().isEmpty() || !ledger.invalidated().isEmpty()) {
      List<String> measuring = candidates.keySet().stream().filter(c -> !ledger.reused().containsKey(c)).toList();
      System.out.println("[llmbench] " + matrix + " resumed from " + dir + ": "
          + (ledger.reused().isEmpty() ? "no candidate reused" : "reusing " + ledger.reusedDescription())
          + (ledger.invalidated().isEmpty() ? "" : "; settings changed since the last run of " + String.join(", ",
              ledger.invalidated()) + ": measured again")
          + (measuring.isEmpty() ? "" : "; measuring " + String.join(", ", measuring)));
    }
    return Optional.of(ledger);
  }

  /** What the sweep measures, candidates aside: its annotations (the method's, the class's), levels and settings. */
  private static String sweep(SweepSetup setup) {
    ExtensionContext context = setup.context();
    List<String> parts = new ArrayList<>();
    Stream.concat(context.getTestMethod().stream().flatMap(m -> Arrays.stream(m.getAnnotations())),
            context.getTestClass().stream().flatMap(c -> Arrays.stream(c.getAnnotations())))
        .filter(MatrixResume::measures).map(Annotation::toString).forEach(parts::add);
    setup.levels().stream().map(LevelPlan::label).forEach(parts::add);
    Settings settings = Settings.of(context);
    for (Setting<?> s : Features.settings()) {
      if (NOT_MEASURED.contains(s.key()) || s.key().startsWith("llmbench.launch.") || s.key().startsWith("llmbench.container.")) {
        continue;
      }
      try {
        parts.add(s.key() + "=" + settings.get(s).text());
      } catch (RuntimeException e) {
        parts.add(s.key() + "=?");
      }
    }
    return String.join("\n", parts);
  }

  /** The candidates' own annotations are in their fingerprints: a new candidate leaves the others' levels valid. */
  private static boolean measures(Annotation a) {
    String pkg = a.annotationType().getPackageName();
    return !pkg.equals(Deployment.class.getPackageName()) && !pkg.equals("dev.llmbench.launch");
  }
}
