package dev.llmbench.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.junit.StoreValues;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.SweepSetup;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The history in the registry: every sweep appends its measured levels to the history store
 * ({@code llmbench.history.*}: a JSON-lines file by default, or PostgreSQL), and shows each headline figure's trend
 * over the newest runs and the change points among them.
 */
@API(status = INTERNAL)
public final class HistoryRegistration implements Feature {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(HistoryRegistration.class);

  @Override
  public String key() {
    return "history";
  }

  @Override
  public List<Setting<?>> settings() {
    return HistoryKeys.ALL;
  }

  /** Last: the run's own comparisons first, then how it sits among the runs before it. */
  @Override
  public int sectionOrder() {
    return 900;
  }

  /**
   * A sweep's only, and a whole one's: a capacity search's probes are not levels of a series, and a shard measures
   * some of the levels (its merge is one run, but it is not a JUnit run that could record it).
   */
  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    if (setup.kind() != SweepSetup.Kind.SWEEP || setup.sharded()) return List.of();
    Settings settings = Settings.of(setup.context());
    Optional<Path> file = settings.get(HistoryKeys.HISTORY_FILE).value();
    Optional<String> jdbc = settings.get(HistoryKeys.HISTORY_JDBC_URL).optional();
    if (file.isEmpty() && jdbc.isEmpty()) return List.of();
    HistoryStore store;
    if (jdbc.isPresent()) {
      String password = settings.get(HistoryKeys.HISTORY_JDBC_PASSWORD_ENV).optional().map(System::getenv).orElse(null);
      Path spool = file.map(HistoryRegistration::spool).orElse(Path.of(".llmbench", "history-pending.jsonl"));
      store = new SpooledHistoryStore(new JdbcHistoryStore(jdbc.get(), settings.get(HistoryKeys.HISTORY_JDBC_USER).value(),
          password), spool);
    } else {
      store = new FileHistoryStore(file.get());
    }
    // One identity for every sweep of this JUnit run: its levels form one run of each series.
    RunIdentity run = StoreValues.computeIfAbsent(setup.context().getRoot().getStore(NAMESPACE), RunIdentity.class,
        k -> RunIdentity.detect("", "", "", Path.of("").toAbsolutePath()), RunIdentity.class);
    return List.of(new HistoryFeature(store, run, settings.get(HistoryKeys.HISTORY_FIGURES).value(),
        settings.get(HistoryKeys.HISTORY_RUNS).value(), settings.get(HistoryKeys.HISTORY_RECENT).value()));
  }

  /** {@code history-pending.jsonl} beside {@code history.jsonl}: the levels the database has not taken yet. */
  static Path spool(Path file) {
    String name = file.getFileName().toString();
    String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
    return file.resolveSibling(stem + "-pending.jsonl");
  }
}
