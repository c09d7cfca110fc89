package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunIdentityTests {

  private static final Instant NOW = Instant.parse("2026-12-07T09:00:00Z");

  @TempDir
  Path dir;

  @Test
  void gitHubActionsVariablesNameTheCommitBranchAndBuild() {
    RunIdentity run = RunIdentity.detect("vllm", "0.11.0", "llama", dir, Map.of("GITHUB_SHA",
        "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "GITHUB_REF_NAME", "main", "GITHUB_RUN_ID", "4242",
        "GITHUB_RUN_ATTEMPT", "2"), NOW);
    assertThat(run.commit()).isEqualTo("a1b2c3d4e5f60718293a4b5c6d7e8f9012345678");
    assertThat(run.shortCommit()).isEqualTo("a1b2c3d");
    assertThat(run.branch()).isEqualTo("main");
    assertThat(run.build()).isEqualTo("4242.2");
    assertThat(run.time()).isEqualTo(NOW);
    assertThat(run.engine()).isEqualTo("vllm");
  }

  @Test
  void gitLabAndJenkinsVariables() {
    RunIdentity gitlab = RunIdentity.detect("", "", "", dir, Map.of("CI_COMMIT_SHA", "ffff", "CI_COMMIT_REF_NAME",
        "release-1", "CI_PIPELINE_ID", "77"), NOW);
    assertThat(gitlab.commit() + " " + gitlab.branch() + " " + gitlab.build()).isEqualTo("ffff release-1 77");
    RunIdentity jenkins = RunIdentity.detect("", "", "", dir, Map.of("GIT_COMMIT", "eeee", "GIT_BRANCH", "origin/main",
        "BUILD_NUMBER", "12"), NOW);
    assertThat(jenkins.commit() + " " + jenkins.branch() + " " + jenkins.build()).isEqualTo("eeee main 12");
  }

  @Test
  void outsideCiAndGitNothingIsInvented() {
    RunIdentity run = RunIdentity.detect("embedded gqa-dense", "", "m", dir, Map.of(), NOW);
    assertThat(run.commit()).isEmpty();
    assertThat(run.branch()).isEmpty();
    assertThat(run.build()).isEmpty();
    assertThat(run.shortCommit()).isEqualTo("?");
    assertThat(run.id()).isNotBlank();
  }

  @Test
  void theWorkingCopysGitIsAskedWhenNoVariableSays() throws Exception {
    Path repo = Path.of("").toAbsolutePath();
    RunIdentity run = RunIdentity.detect("", "", "", repo, Map.of(), NOW);
    Process git = new ProcessBuilder("git", "rev-parse", "HEAD").directory(repo.toFile()).start();
    String head = new String(git.getInputStream().readAllBytes()).strip();
    if (git.waitFor() == 0) assertThat(run.commit()).isEqualTo(head);
  }
}
