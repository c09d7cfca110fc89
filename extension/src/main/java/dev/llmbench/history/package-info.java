/**
 * Every run remembered: each measured level's figures with the run's identity ({@link RunIdentity}: time, commit,
 * branch, CI build, engine, model, client machine) and the level's ({@link LevelIdentity}), kept in a
 * {@link HistoryStore} ({@link FileHistoryStore}, one JSON line per level in the project; {@link JdbcHistoryStore},
 * PostgreSQL for a team; {@link SpooledHistoryStore}, which keeps what a down database refused), and read back as
 * {@link Series} in which {@link ChangePoints} finds the runs where a figure shifted beyond its noise, by E-divisive
 * means as Apache Otava does. Every sweep records itself ({@code llmbench.history.*}, on by default to
 * {@code .llmbench/history.jsonl}) and shows its trends and the change points among its newest runs; a user needs
 * this package to read the history back: {@link HistoryAssert} makes that a CI gate, and {@code scripts/history.sh}
 * (llmbench-cli) prints a store's series and their change points.
 */
package dev.llmbench.history;
