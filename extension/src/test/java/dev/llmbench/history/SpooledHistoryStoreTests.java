package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpooledHistoryStoreTests {

  @TempDir
  Path dir;

  /** A store that refuses while down, else keeps what it is sent. */
  private static final class Flaky implements HistoryStore {
    boolean down;
    final List<LevelRecord> kept = new ArrayList<>();

    @Override
    public void append(List<LevelRecord> levels) throws IOException {
      if (down) throw new IOException("could not append " + JdbcHistoryStore.count(levels.size()) + " to the history at db: down");
      kept.addAll(levels);
    }

    @Override
    public HistoryRead read() {
      return new HistoryRead(kept, List.of());
    }

    @Override
    public String describe() {
      return "db";
    }
  }

  @Test
  void whatTheDatabaseRefusedIsSentByTheNextRun() throws Exception {
    Flaky db = new Flaky();
    Path spool = dir.resolve("pending.jsonl");
    SpooledHistoryStore store = new SpooledHistoryStore(db, spool);
    List<LevelRecord> levels = HistoryFixtures.series("C=8", 3, 500, 0.02, 99, 0, 9);

    store.append(levels.subList(0, 1));
    db.down = true;
    assertThatThrownBy(() -> store.append(levels.subList(1, 2)))
        .hasMessage("could not append 1 level to the history at db: down; 1 level kept in " + spool
            + " for the next run to send");
    // Still down: the next run tries its own level and the one kept, and keeps both.
    List<LevelRecord> again = HistoryFixtures.series("C=32", 1, 900, 0.02, 99, 0, 10);
    assertThatThrownBy(() -> store.append(again))
        .hasMessage("could not append 2 levels to the history at db: down; 2 levels kept in " + spool
            + " for the next run to send");
    assertThat(store.read().levels()).containsExactlyInAnyOrder(levels.get(0), levels.get(1), again.get(0));

    db.down = false;
    store.append(levels.subList(2, 3));
    assertThat(db.kept).containsExactly(levels.get(0), levels.get(1), again.get(0), levels.get(2));
    assertThat(Files.size(spool)).isZero();
  }
}
