package dev.llmbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.engine.ServerMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The standalone engine's flags (the engine's own modes and key: llmbench-engine's ServerModeTests). */
class EmbeddedServerMainTests {

  static final String KEY = "sk-test-0123456789";

  @Test
  void commandLineFlagsBecomeOptions() {
    EmbeddedServerMain main = new EmbeddedServerMain();
    new CommandLine(main).parseArgs();
    EmbeddedOptions defaults = main.options();
    assertThat(defaults.profile()).as("the extension's default profile").isEqualTo(PerformanceProfile.GQA_DENSE);
    assertThat(defaults.port()).isEqualTo(8000);
    assertThat(defaults.faults().isEmpty()).isTrue();
    assertThat(defaults.mode()).isEqualTo(ServerMode.NORMAL);
    assertThat(defaults.prefixCache()).isTrue();
    assertThat(defaults.coldBatchStall()).isZero();
    assertThat(defaults.slowdown()).isEqualTo(1.0);

    main = new EmbeddedServerMain();
    new CommandLine(main).parseArgs("--profile", "instant", "--port", "0", "--faults", "drop:every5,reset:2%",
        "--fault-seed", "9", "--mode", "never-ready", "--api-key", KEY, "--keep-alive", "PT5S", "--startup-delay", "PT1S",
        "--no-prefix-cache", "--cold-batch-stall", "PT2S", "--slowdown", "1.2");
    EmbeddedOptions options = main.options();
    assertThat(options.profile()).isEqualTo(PerformanceProfile.INSTANT);
    assertThat(options.faults()).hasToString("drop:every5,reset:2%");
    assertThat(options.faultSeed()).isEqualTo(9);
    assertThat(options.mode()).isEqualTo(ServerMode.NEVER_READY);
    assertThat(options.apiKey()).isEqualTo(KEY);
    assertThat(options.keepAlive()).isEqualTo(Duration.ofSeconds(5));
    assertThat(options.startupDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(options.prefixCache()).isFalse();
    assertThat(options.coldBatchStall()).isEqualTo(Duration.ofSeconds(2));
    assertThat(options.slowdown()).isEqualTo(1.2);

    EmbeddedServerMain bad = new EmbeddedServerMain();
    new CommandLine(bad).parseArgs("--faults", "explode:5%");
    assertThatThrownBy(bad::options).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("'explode' is not a fault kind");
    EmbeddedServerMain slow = new EmbeddedServerMain();
    new CommandLine(slow).parseArgs("--slowdown", "0");
    assertThatThrownBy(slow::options).hasMessageContaining("slowdown must be a positive factor");
  }
}
