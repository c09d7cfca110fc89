package dev.llmbench.baseline;

import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.SettingKeys;
import java.nio.file.Path;
import java.util.List;

/** The baseline's own settings, declared beside it (the registry lists them: {@link BaselineRegistration}). */
final class BaselineKeys {

  private BaselineKeys() {}

  static final Setting<Path> BASELINE_DIR = new Setting<>("llmbench.baseline.dir", "llmbench-baselines", null,
      "folder of `@Baseline` files, one per sweep: `<class>.<method>.json`", Path::of);
  static final Setting<Boolean> BASELINE_SAVE = new Setting<>("llmbench.baseline.save", "false", null,
      "`true` saves this run of every `@Baseline` sweep as its baseline instead of comparing", SettingKeys::bool);
  static final Setting<Double> BASELINE_MAX_REGRESSION = new Setting<>("llmbench.baseline.max-regression", "",
      "the annotation's", "worsening beyond noise that fails a level, e.g. `0.1` for 10%; `off` to report only",
      SettingKeys::regression);
  static final Setting<Path> BASELINE_VLLM = new Setting<>("llmbench.baseline.vllm", "", "none",
      "a `vllm bench serve` result file (or folder of them) every sweep is compared with, level by concurrency or rate",
      Path::of);

  /** In the order of the settings table. */
  static final List<Setting<?>> ALL = List.of(BASELINE_DIR, BASELINE_SAVE, BASELINE_MAX_REGRESSION, BASELINE_VLLM);
}
