package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apiguardian.api.API;

/**
 * Which level of which sweep a row of figures belongs to: the same identity in two runs means the two are one
 * series. A changed workload or setting changes its fingerprint and so starts a new series, rather than
 * showing as a change point.
 *
 * @param suite      the test class
 * @param sweep      the sweep: the test method
 * @param level      the level's label: {@code C=32}, {@code 8 req/s}
 * @param deployment the deployment's name in a comparison of several, {@code ""} otherwise
 * @param workload   a fingerprint of the requests sent (prompts, lengths, dataset)
 * @param settings   a fingerprint of the sweep's settings (duration, warm-up, SLO, engine flags)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record LevelIdentity(String suite, String sweep, String level, String deployment, String workload,
    String settings) {

  /**
   * Blank fields become {@code ""}; suite, sweep and level are required.
   *
   * @param suite      the test class
   * @param sweep      the sweep: the test method
   * @param level      the level's label
   * @param deployment the deployment's name, or {@code ""}
   * @param workload   a fingerprint of the requests sent
   * @param settings   a fingerprint of the sweep's settings
   */
  public LevelIdentity {
    for (String[] field : new String[][] {{"suite", suite}, {"sweep", sweep}, {"level", level}}) {
      if (field[1] == null || field[1].isBlank()) throw new IllegalArgumentException("a level needs a " + field[0]);
    }
    deployment = deployment == null ? "" : deployment;
    workload = workload == null ? "" : workload;
    settings = settings == null ? "" : settings;
  }

  /**
   * {@return the first 12 hex digits of the SHA-256 of the parts, each ended by a NUL: a fingerprint for
   * {@link #workload()} or {@link #settings()}}
   *
   * @param parts what the fingerprint covers, in a fixed order
   */
  public static String fingerprint(String... parts) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        sha.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** {@code Suite.sweep C=32}, with the deployment after a slash when there is one. */
  @Override
  public String toString() {
    return suite + "." + sweep + (deployment.isEmpty() ? "" : " " + deployment + ":") + " " + level;
  }
}
