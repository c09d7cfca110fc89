package dev.llmbench.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.internal.spi.Features;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** One precedence for every key, and one catalogue the settings page (docs/settings.md) is checked against. */
class SettingsTests {

  static Settings settings(Map<String, String> configuration, Map<String, String> environment) {
    return new Settings(key -> Optional.ofNullable(configuration.get(key)), environment);
  }

  @Test
  void configurationBeatsEnvironmentBeatsAnnotationBeatsDefault() {
    Setting<Duration> key = SettingKeys.READY_TIMEOUT;
    assertThat(settings(Map.of("llmbench.ready.timeout", "1m"), Map.of("LLMBENCH_READY_TIMEOUT", "2m")).get(key, "3m"))
        .isEqualTo(new Settings.Resolved<>(Duration.ofMinutes(1), "1m", "configuration parameter llmbench.ready.timeout"));
    assertThat(settings(Map.of(), Map.of("LLMBENCH_READY_TIMEOUT", "2m")).get(key, "3m").source())
        .isEqualTo("environment variable LLMBENCH_READY_TIMEOUT");
    assertThat(settings(Map.of(), Map.of()).get(key, "3m").value()).isEqualTo(Duration.ofMinutes(3));
    assertThat(settings(Map.of(), Map.of()).get(key, "").value()).isEqualTo(Duration.ofMinutes(20));
  }

  @Test
  void sweepKeysReadTheEnvironmentToo() {
    Settings env = settings(Map.of(), Map.of("LLMBENCH_SWEEP_LEVELS", "1,4", "LLMBENCH_SWEEP_RATES", "0.5, 2",
        "LLMBENCH_SWEEP_REQUESTS", "7", "LLMBENCH_REPORT_DIR", "out/reports"));
    assertThat(env.get(SettingKeys.SWEEP_LEVELS).value()).containsExactly(1, 4);
    assertThat(env.get(SettingKeys.SWEEP_RATES).value()).containsExactly(0.5, 2.0);
    assertThat(env.get(SettingKeys.SWEEP_REQUESTS).value()).isEqualTo(7);
    assertThat(env.get(SettingKeys.REPORT_DIR).value()).isEqualTo(Path.of("out/reports"));
    assertThat(settings(Map.of(), Map.of()).get(SettingKeys.SWEEP_LEVELS).optional()).isEmpty();
  }

  @Test
  void aBadValueNamesTheKeyItsSourceAndTheFix() {
    assertThatThrownBy(() -> settings(Map.of(), Map.of("LLMBENCH_SWEEP_LEVELS", ",")).get(SettingKeys.SWEEP_LEVELS))
        .hasMessage("llmbench.sweep.levels ',' (from environment variable LLMBENCH_SWEEP_LEVELS) is not usable: "
            + "it lists no value; write e.g. 1,4,16");
    assertThatThrownBy(() -> settings(Map.of("llmbench.base-url", "http://127.0.0.1:99999"), Map.of()).get(SettingKeys.BASE_URL))
        .hasMessageContaining("port 99999 is outside 1-65535");
    assertThatThrownBy(() -> settings(Map.of("llmbench.embedded.profile", "h100"), Map.of()).get(SettingKeys.EMBEDDED_PROFILE))
        .hasMessageContaining("unknown embedded profile; choose one of [fixed-20ms, gqa-dense, gqa-fp8, gqa-int4, instant, mla-pcie,");
    assertThatThrownBy(() -> settings(Map.of("llmbench.idle-timeout", "0s"), Map.of()).get(SettingKeys.IDLE_TIMEOUT))
        .hasMessageContaining("it must be positive");
  }

  /**
   * The settings page (docs/settings.md) lists exactly the catalogue's keys, in order, with their defaults and meanings:
   * the machinery's, then each registered feature's own.
   */
  @Test
  void theSettingsPageIsTheCatalogue() throws IOException {
    String readme = Files.readString(Path.of("..", "docs", "settings.md"));
    Pattern row = Pattern.compile("^\\| `(llmbench\\.[a-z.-]+)` \\| (.*) \\| (.*) \\|$", Pattern.MULTILINE);
    Map<String, List<String>> documented = new LinkedHashMap<>();
    Matcher m = row.matcher(readme);
    while (m.find()) documented.put(m.group(1), List.of(m.group(2), m.group(3)));
    Map<String, List<String>> catalogue = new LinkedHashMap<>();
    for (Setting<?> s : Features.settings()) {
      String shown = s.shownDefault() != null ? s.shownDefault() : "`" + s.defaultValue() + "`";
      catalogue.put(s.key(), List.of(shown, s.meaning()));
    }
    assertThat(documented).containsExactlyEntriesOf(catalogue);
  }
}
