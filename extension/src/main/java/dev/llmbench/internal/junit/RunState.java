package dev.llmbench.internal.junit;

import static dev.llmbench.internal.config.SettingKeys.ALLURE_CONFIG;
import static dev.llmbench.internal.config.SettingKeys.REPORT_DIR;

import dev.llmbench.internal.baseline.BaselineRecorder;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointConfig;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.report.AllureReporter;
import dev.llmbench.internal.report.ConsoleReporter;
import dev.llmbench.internal.report.FileReporter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What lives for the whole run, in the root {@link ExtensionContext.Store}: the reports that listen to
 * it, and its endpoints. Closed when the run ends, after every endpoint, so that run-wide report files
 * (Allure's environment) are written last.
 */
final class RunState implements AutoCloseable {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RunState.class);

  private final BenchListener listener;

  private RunState(BenchListener listener) {
    this.listener = listener;
  }

  static RunState of(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(RunState.class, k -> create(context), RunState.class);
  }

  private static RunState create(ExtensionContext context) {
    Settings settings = Settings.of(context);
    Path reportDir;
    Optional<Path> allureConfig;
    try {
      reportDir = settings.get(REPORT_DIR).value();
      allureConfig = settings.get(ALLURE_CONFIG).optional();
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("Configuration error: " + e.getMessage(), e);
    }
    Path allureResults = AllureReporter.resultsDir(context.getConfigurationParameter("allure.results.directory"));
    // The baseline is saved first, so that the reports that name its file come after it exists.
    return new RunState(Listeners.broadcast(List.of(new BaselineRecorder(), new ConsoleReporter(reportDir), new FileReporter(reportDir),
        new AllureReporter(allureResults, allureConfig))));
  }

  BenchListener listener() {
    return listener;
  }

  /** The endpoint of this test's settings, created on first use and closed when the run ends. */
  static Endpoint endpoint(ExtensionContext context) {
    return endpoint(context, EndpointSettings.of(context));
  }

  /** The endpoint of {@code config} (a deployment's), created on first use and closed when the run ends. */
  static Endpoint endpoint(ExtensionContext context, EndpointConfig config) {
    RunState run = of(context); // stored first, so closed after the endpoints
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(config, k -> new Endpoint(config, run.listener()),
        Endpoint.class);
  }

  @Override
  public void close() {
    listener.runFinished();
  }
}
