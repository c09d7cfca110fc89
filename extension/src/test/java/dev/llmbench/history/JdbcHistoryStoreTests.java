package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PostgreSQL store without a server: what a run sees when the database is down. */
class JdbcHistoryStoreTests {

  @Test
  void aDatabaseThatIsDownIsAnIOExceptionNamingWhereWithoutCredentials() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/bench?password=secret";
    JdbcHistoryStore store = new JdbcHistoryStore(url, "bench", "bench");
    assertThatThrownBy(() -> store.append(HistoryFixtures.series("C=1", 1, 100, 0.02, 99, 0, 1)))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("could not append 1 level to the history at jdbc:postgresql://127.0.0.1:" + port
            + "/bench: Connection to 127.0.0.1:" + port + " refused.")
        .hasMessageEndingWith("(SQL state 08001)")
        .hasMessageNotContaining("secret");
    // Nothing to send: no connection is tried.
    assertThatCode(() -> store.append(List.of())).doesNotThrowAnyException();
  }
}
