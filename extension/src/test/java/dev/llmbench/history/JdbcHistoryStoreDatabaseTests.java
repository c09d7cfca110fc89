package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.testkit.BenchKit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL store against a real server: scripts/database.sh starts one on 127.0.0.1 and names it in
 * BENCH_PG_URL, BENCH_PG_USER and BENCH_PG_PASSWORD. Each test works in a schema of its own, dropped after.
 */
@Tag("database")
class JdbcHistoryStoreDatabaseTests {

  private static final String URL = env("BENCH_PG_URL", "jdbc:postgresql://127.0.0.1:5432/bench");
  private static final String USER = env("BENCH_PG_USER", "bench");
  private static final String PASSWORD = env("BENCH_PG_PASSWORD", "bench");

  private String schema;
  private String url;

  private static String env(String name, String otherwise) {
    return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank()).orElse(otherwise);
  }

  @BeforeEach
  void ownSchema() throws Exception {
    schema = "history_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement s = c.createStatement()) {
      s.execute("create schema " + schema);
    }
    url = URL + (URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  @AfterEach
  void dropSchema() throws Exception {
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement s = c.createStatement()) {
      s.execute("drop schema " + schema + " cascade");
    }
  }

  private long count(String table) throws Exception {
    try (Connection c = DriverManager.getConnection(url, USER, PASSWORD); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from " + table)) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void theSchemaIsCreatedAndLevelsComeBackAsWritten() throws Exception {
    JdbcHistoryStore store = new JdbcHistoryStore(url, USER, PASSWORD);
    assertThat(store.schemaVersion()).isZero();
    List<LevelRecord> levels = new ArrayList<>(HistoryFixtures.series("C=8", 5, 500, 0.02, 99, 0, 3));
    levels.addAll(HistoryFixtures.series("C=32", 5, 1200, 0.02, 99, 0, 4));
    store.append(levels);
    assertThat(store.schemaVersion()).isEqualTo(JdbcHistoryStore.MIGRATIONS.size());
    HistoryRead read = store.read();
    assertThat(read.skipped()).isEmpty();
    assertThat(read.levels()).containsExactlyInAnyOrderElementsOf(levels);
    assertThat(read.history().runs()).isEqualTo(5);
    assertThat(store.describe()).isEqualTo(URL.split("\\?")[0]);
  }

  @Test
  void aStoreAnOlderVersionWroteIsMigratedAndRead() throws Exception {
    List<LevelRecord> old = HistoryFixtures.series("C=1", 4, 100, 0.02, 99, 0, 5);
    JdbcHistoryStore version1 = new JdbcHistoryStore(url, USER, PASSWORD, 1);
    version1.append(old);
    assertThat(version1.schemaVersion()).isEqualTo(1);

    JdbcHistoryStore current = new JdbcHistoryStore(url, USER, PASSWORD);
    assertThat(current.read().levels()).containsExactlyElementsOf(old);
    assertThat(current.schemaVersion()).isEqualTo(JdbcHistoryStore.MIGRATIONS.size());
    try (Connection c = DriverManager.getConnection(url, USER, PASSWORD); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select indexname from pg_indexes where schemaname = '" + schema
            + "' and indexname = 'llmbench_level_series'")) {
      assertThat(r.next()).as("version 2's index").isTrue();
    }
  }

  @Test
  void concurrentWritersOnTheirOwnConnectionsLoseNothing() throws Exception {
    int writers = 8;
    int runsEach = 20;
    List<String> labels = List.of("C=1", "C=8", "C=32");
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<LevelRecord> written = java.util.Collections.synchronizedList(new ArrayList<>());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          // A store of its own, as separate suites have: they also race to create the schema.
          JdbcHistoryStore store = new JdbcHistoryStore(url, USER, PASSWORD);
          start.await();
          for (int r = 0; r < runsEach; r++) {
            RunIdentity run = HistoryFixtures.run(writer * 1000 + r);
            List<LevelRecord> levels = new ArrayList<>();
            for (String label : labels) {
              Map<String, StoredFigure> figures = new LinkedHashMap<>();
              figures.put("output_throughput", new StoredFigure(writer * 1000 + r, "tok/s"));
              figures.put("ttft.p99", new StoredFigure(r + 0.5, "ms"));
              figures.put("error_rate", new StoredFigure(0, "fraction"));
              levels.add(new LevelRecord(run, HistoryFixtures.level(label), figures));
            }
            store.append(levels);
            written.addAll(levels);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdownNow();
    }
    assertThat(count("llmbench_run")).isEqualTo(writers * runsEach);
    assertThat(count("llmbench_level")).isEqualTo(writers * runsEach * labels.size());
    assertThat(count("llmbench_figure")).isEqualTo(writers * runsEach * labels.size() * 3L);
    assertThat(count("llmbench_schema_version")).isEqualTo(JdbcHistoryStore.MIGRATIONS.size());
    assertThat(new JdbcHistoryStore(url, USER, PASSWORD).read().levels()).containsExactlyInAnyOrderElementsOf(written);
  }

  @Test
  void aSweepRecordsItsLevelsInPostgreSqlAndDrawsItsTrendFromThere() throws Exception {
    String[] settings = {"llmbench.history.jdbc-url", url, "llmbench.history.jdbc-user", USER,
        "llmbench.history.jdbc-password-env", "BENCH_PG_PASSWORD"};
    BenchKit.Run first = BenchKit.run(HistoryFeatureTests.TwoLevelsTestCases.class, settings);
    assertThat(first).passed("C=1", "C=2");
    assertThat(count("llmbench_level")).isEqualTo(2);
    BenchKit.Run second = BenchKit.run(HistoryFeatureTests.TwoLevelsTestCases.class, settings);
    assertThat(second).passed("C=1", "C=2");
    assertThat(count("llmbench_run")).isEqualTo(2);
    assertThat(count("llmbench_level")).isEqualTo(4);
    Path dir = second.sweepDir(HistoryFeatureTests.TwoLevelsTestCases.class, "sweep");
    assertThat(Files.readString(dir.resolve("index.html"))).contains("This run's 2 levels were recorded in <code>"
        + new JdbcHistoryStore(url, USER, PASSWORD).describe() + " (unsent levels kept in ")
        .contains("-history-pending.jsonl)</code>; 2 runs of this sweep in the trends");
    assertThat(dir.resolve("history-output_throughput.svg")).exists();
  }
}
