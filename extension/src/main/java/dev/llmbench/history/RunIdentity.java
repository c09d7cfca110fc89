package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * Which run a level's figures came from: when, from which commit and branch, in which CI build, against which
 * engine and model, from which client machine. Fields nobody could tell are empty strings, never null.
 *
 * @param id            a unique id that ties the levels of one run together
 * @param time          when the run started
 * @param commit        the git commit measured (full hash, or whatever the CI variable said)
 * @param branch        the git branch
 * @param build         the CI build's id, {@code ""} outside CI
 * @param engine        which engine served: {@code vllm}, {@code llama.cpp}, {@code embedded gqa-dense}
 * @param engineVersion what the engine said its version was
 * @param model         the model id requests named
 * @param host          the client machine's name
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunIdentity(String id, Instant time, String commit, String branch, String build, String engine,
    String engineVersion, String model, String host) {

  /** CI variables holding the commit, most specific first (GitHub, GitLab, Jenkins, CircleCI, Buildkite, Azure, Travis). */
  static final List<String> COMMIT_VARIABLES = List.of("GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT", "CIRCLE_SHA1",
      "BUILDKITE_COMMIT", "BUILD_SOURCEVERSION", "TRAVIS_COMMIT");
  /** CI variables holding the branch; a pull request's source branch before the ref GitHub merges into. */
  static final List<String> BRANCH_VARIABLES = List.of("GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME",
      "GIT_BRANCH", "CIRCLE_BRANCH", "BUILDKITE_BRANCH", "BUILD_SOURCEBRANCHNAME", "TRAVIS_BRANCH");
  /** CI variables holding the build's id. */
  static final List<String> BUILD_VARIABLES = List.of("GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILD_TAG", "BUILD_NUMBER",
      "CIRCLE_BUILD_NUM", "BUILDKITE_BUILD_NUMBER", "BUILD_BUILDID", "TRAVIS_BUILD_NUMBER");

  /**
   * Blank fields become {@code ""}.
   *
   * @param id            a unique id that ties the levels of one run together
   * @param time          when the run started
   * @param commit        the git commit measured
   * @param branch        the git branch
   * @param build         the CI build's id
   * @param engine        which engine served
   * @param engineVersion what the engine said its version was
   * @param model         the model id requests named
   * @param host          the client machine's name
   */
  public RunIdentity {
    if (id == null || id.isBlank()) throw new IllegalArgumentException("a run needs an id");
    if (time == null) throw new IllegalArgumentException("a run needs a time");
    commit = orEmpty(commit);
    branch = orEmpty(branch);
    build = orEmpty(build);
    engine = orEmpty(engine);
    engineVersion = orEmpty(engineVersion);
    model = orEmpty(model);
    host = orEmpty(host);
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s.strip();
  }

  /**
   * {@return the identity of a run starting now in {@code directory}: the commit, branch and build from the CI
   * variables, else from {@code git}; the host's name}
   *
   * @param engine        which engine served
   * @param engineVersion what it said its version was
   * @param model         the model id
   * @param directory     the project's directory, where {@code git} is asked
   */
  public static RunIdentity detect(String engine, String engineVersion, String model, Path directory) {
    return detect(engine, engineVersion, model, directory, System.getenv(), Instant.now());
  }

  static RunIdentity detect(String engine, String engineVersion, String model, Path directory, Map<String, String> env,
      Instant now) {
    String commit = first(env, COMMIT_VARIABLES).or(() -> git(directory, "rev-parse", "HEAD")).orElse("");
    String branch = first(env, BRANCH_VARIABLES).or(() -> git(directory, "rev-parse", "--abbrev-ref", "HEAD"))
        .filter(b -> !b.equals("HEAD")).orElse("");
    // Jenkins says origin/main.
    if (branch.startsWith("origin/")) branch = branch.substring("origin/".length());
    String build = first(env, BUILD_VARIABLES).orElse("");
    if (env.containsKey("GITHUB_RUN_ID") && env.containsKey("GITHUB_RUN_ATTEMPT")) {
      build = env.get("GITHUB_RUN_ID") + "." + env.get("GITHUB_RUN_ATTEMPT");
    }
    // Microseconds: what PostgreSQL keeps, so both stores give back the same identity.
    return new RunIdentity(UUID.randomUUID().toString(), now.truncatedTo(ChronoUnit.MICROS), commit, branch, build, engine, engineVersion, model,
        host(env));
  }

  private static Optional<String> first(Map<String, String> env, List<String> names) {
    return names.stream().map(env::get).filter(v -> v != null && !v.isBlank()).findFirst();
  }

  private static String host(Map<String, String> env) {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return Optional.ofNullable(env.get("HOSTNAME")).orElse("");
    }
  }

  /** One line from git, or empty when git is missing, fails or takes longer than 5 s. */
  private static Optional<String> git(Path directory, String... args) {
    try {
      String[] command = new String[args.length + 1];
      command[0] = "git";
      System.arraycopy(args, 0, command, 1, args.length);
      Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(false)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.empty();
      }
      if (process.exitValue() != 0) return Optional.empty();
      String line = new String(out, StandardCharsets.UTF_8).strip();
      return line.isEmpty() ? Optional.empty() : Optional.of(line);
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** {@return the commit's first 7 characters, as people quote it; {@code ?} when unknown} */
  public String shortCommit() {
    return commit.isEmpty() ? "?" : commit.substring(0, Math.min(7, commit.length()));
  }
}
