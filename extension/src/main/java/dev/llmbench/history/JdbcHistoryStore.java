package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * The history in PostgreSQL, through plain JDBC: the project adds the driver ({@code org.postgresql:postgresql}),
 * LLMBench creates the tables and migrates them, recording each step in {@code llmbench_schema_version}. A run's
 * levels land in one transaction, so several suites can write at once and each run lands whole or not at all.
 *
 * <p>Tables: {@code llmbench_run} (one row a run), {@code llmbench_level} (one a level of a run),
 * {@code llmbench_figure} (one a figure of a level).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JdbcHistoryStore implements HistoryStore {

  /** Each step brings the schema from the version before it to its own; step i is version i + 1. */
  static final List<List<String>> MIGRATIONS = List.of(
      List.of(
          "create table llmbench_run (id varchar(64) primary key, started_at timestamp with time zone not null,"
              + " git_commit text not null, branch text not null, build text not null, engine text not null,"
              + " engine_version text not null, model text not null, host text not null)",
          "create table llmbench_level (id bigint generated always as identity primary key,"
              + " run_id varchar(64) not null references llmbench_run (id), suite text not null, sweep text not null,"
              + " level text not null, deployment text not null, workload text not null, settings text not null)",
          "create table llmbench_figure (level_id bigint not null references llmbench_level (id), position int not null,"
              + " name text not null, value double precision not null, unit text not null,"
              + " primary key (level_id, name))"),
      // Version 2: a series is read by its level's identity.
      List.of("create index llmbench_level_series on llmbench_level (suite, sweep, level, deployment)",
          "create index llmbench_run_started on llmbench_run (started_at)"));

  private final String url;
  private final Properties credentials;
  private final int targetVersion;
  private volatile boolean migrated;

  /**
   * A store at {@code url}; the schema is created or migrated on first use.
   *
   * @param url      a JDBC URL, {@code jdbc:postgresql://db:5432/bench}
   * @param user     the database user
   * @param password that user's password
   */
  public JdbcHistoryStore(String url, String user, String password) {
    this(url, user, password, MIGRATIONS.size());
  }

  JdbcHistoryStore(String url, String user, String password, int targetVersion) {
    this.url = url;
    this.credentials = new Properties();
    if (user != null) credentials.setProperty("user", user);
    if (password != null) credentials.setProperty("password", password);
    this.targetVersion = targetVersion;
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(url, credentials);
  }

  /** {@return the schema version the database holds, 0 before the first use} */
  int schemaVersion() throws IOException {
    try (Connection c = connect()) {
      return version(c);
    } catch (SQLException e) {
      throw failure("read the schema version of", e);
    }
  }

  private static int version(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select coalesce(max(version), 0) from llmbench_schema_version")) {
      r.next();
      return r.getInt(1);
    } catch (SQLException e) {
      if ("42P01".equals(e.getSQLState())) return 0; // undefined table: nothing created yet
      throw e;
    }
  }

  private void migrate(Connection c) throws SQLException {
    if (migrated) return;
    c.setAutoCommit(false);
    // Two writers may both find no table: the loser's create fails on the catalog's unique index, and it retries.
    for (int attempt = 0; ; attempt++) {
      try (Statement s = c.createStatement()) {
        s.execute("create table if not exists llmbench_schema_version (version int primary key,"
            + " applied_at timestamp with time zone not null default current_timestamp)");
        c.commit();
        break;
      } catch (SQLException e) {
        c.rollback();
        if (attempt >= 3) throw e;
      }
    }
    try (Statement s = c.createStatement()) {
      // One migrator at a time; the others wait, then find the work done.
      s.execute("lock table llmbench_schema_version in exclusive mode");
      int version = version(c);
      if (version > MIGRATIONS.size()) {
        throw new SQLException("the history schema is version " + version + ", newer than this LLMBench knows ("
            + MIGRATIONS.size() + "): upgrade LLMBench");
      }
      for (int v = version; v < targetVersion; v++) {
        for (String sql : MIGRATIONS.get(v)) s.execute(sql);
        s.execute("insert into llmbench_schema_version (version) values (" + (v + 1) + ")");
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    }
    migrated = true;
  }

  @Override
  public void append(List<LevelRecord> levels) throws IOException {
    if (levels.isEmpty()) return;
    try (Connection c = connect()) {
      migrate(c);
      c.setAutoCommit(false);
      try (PreparedStatement run = c.prepareStatement("insert into llmbench_run (id, started_at, git_commit, branch,"
              + " build, engine, engine_version, model, host) values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing");
          PreparedStatement level = c.prepareStatement("insert into llmbench_level (run_id, suite, sweep, level,"
              + " deployment, workload, settings) values (?, ?, ?, ?, ?, ?, ?)", new String[] {"id"});
          PreparedStatement figure = c.prepareStatement("insert into llmbench_figure (level_id, position, name, value,"
              + " unit) values (?, ?, ?, ?, ?)")) {
        for (LevelRecord record : levels) {
          RunIdentity r = record.run();
          run.setString(1, r.id());
          run.setTimestamp(2, Timestamp.from(r.time()));
          run.setString(3, r.commit());
          run.setString(4, r.branch());
          run.setString(5, r.build());
          run.setString(6, r.engine());
          run.setString(7, r.engineVersion());
          run.setString(8, r.model());
          run.setString(9, r.host());
          run.executeUpdate();
          LevelIdentity l = record.level();
          level.setString(1, r.id());
          level.setString(2, l.suite());
          level.setString(3, l.sweep());
          level.setString(4, l.level());
          level.setString(5, l.deployment());
          level.setString(6, l.workload());
          level.setString(7, l.settings());
          level.executeUpdate();
          long id;
          try (ResultSet keys = level.getGeneratedKeys()) {
            keys.next();
            id = keys.getLong(1);
          }
          int position = 0;
          for (Map.Entry<String, StoredFigure> f : record.figures().entrySet()) {
            figure.setLong(1, id);
            figure.setInt(2, position++);
            figure.setString(3, f.getKey());
            figure.setDouble(4, f.getValue().value());
            figure.setString(5, f.getValue().unit());
            figure.addBatch();
          }
          figure.executeBatch();
        }
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw failure("append " + count(levels.size()) + " to", e);
    }
  }

  @Override
  public HistoryRead read() throws IOException {
    try (Connection c = connect()) {
      migrate(c);
      c.setAutoCommit(true);
      Map<Long, LevelRecord> levels = new LinkedHashMap<>();
      Map<Long, Map<String, StoredFigure>> figures = new LinkedHashMap<>();
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select l.id, r.id, r.started_at, r.git_commit, r.branch, r.build, r.engine,"
              + " r.engine_version, r.model, r.host, l.suite, l.sweep, l.level, l.deployment, l.workload, l.settings,"
              + " f.name, f.value, f.unit from llmbench_level l join llmbench_run r on r.id = l.run_id"
              + " left join llmbench_figure f on f.level_id = l.id order by r.started_at, l.id, f.position")) {
        while (r.next()) {
          long id = r.getLong(1);
          if (!levels.containsKey(id)) {
            RunIdentity run = new RunIdentity(r.getString(2), r.getTimestamp(3).toInstant(), r.getString(4),
                r.getString(5), r.getString(6), r.getString(7), r.getString(8), r.getString(9), r.getString(10));
            LevelIdentity level = new LevelIdentity(r.getString(11), r.getString(12), r.getString(13), r.getString(14),
                r.getString(15), r.getString(16));
            levels.put(id, new LevelRecord(run, level, Map.of()));
            figures.put(id, new LinkedHashMap<>());
          }
          String name = r.getString(17);
          if (name != null) figures.get(id).put(name, new StoredFigure(r.getDouble(18), r.getString(19)));
        }
      }
      List<LevelRecord> out = new ArrayList<>();
      levels.forEach((id, l) -> out.add(new LevelRecord(l.run(), l.level(), figures.get(id))));
      return new HistoryRead(out, List.of());
    } catch (SQLException e) {
      throw failure("read", e);
    }
  }

  /** {@return {@code 1 level}, {@code 3 levels}} */
  static String count(int levels) {
    return levels + (levels == 1 ? " level" : " levels");
  }

  private IOException failure(String what, SQLException e) {
    return new IOException("could not " + what + " the history at " + describe() + ": " + e.getMessage()
        + " (SQL state " + e.getSQLState() + ")", e);
  }

  /** {@return the JDBC URL without its query, where a password may be} */
  @Override
  public String describe() {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }
}
