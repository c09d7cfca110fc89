package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.SettingKeys;
import dev.llmbench.internal.core.EndpointRoute;
import dev.llmbench.internal.core.LevelRecorder;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.ReplyJudge;
import dev.llmbench.internal.core.SweepRun;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The registered {@link Feature}s, in the order the registry file lists them, and their seams asked of all at once. */
@API(status = INTERNAL)
public final class Features {

  /** Read once: the registry is part of the library, not of a run, so it holds no run's state. */
  private static final List<Feature> ALL = ServiceLoader.load(Feature.class, Feature.class.getClassLoader()).stream()
      .map(ServiceLoader.Provider::get).toList();
  /** The same, in the order their sections show in the reports (a stable sort: ties keep the registry's order). */
  private static final List<Feature> BY_SECTION = ALL.stream().sorted(Comparator.comparingInt(Feature::sectionOrder)).toList();

  private Features() {}

  /** Every registered feature. */
  public static List<Feature> all() {
    return ALL;
  }

  /** Every setting LLMBench reads: the machinery's ({@link SettingKeys#all()}), then each feature's, in the registry's order. */
  public static List<Setting<?>> settings() {
    List<Setting<?>> all = new ArrayList<>(SettingKeys.all());
    ALL.forEach(f -> all.addAll(f.settings()));
    return List.copyOf(all);
  }

  /** Whether a feature runs {@code method} as a benchmark whose levels send load (a capacity search). */
  public static boolean runLevels(Method method) {
    return ALL.stream().anyMatch(f -> f.runsLevels(method));
  }

  /** The route a benchmark method sends its load to, as the first feature that decides it says; empty when none does. */
  public static Optional<EndpointRoute> route(Method method, Class<?> testClass) {
    return ALL.stream().map(f -> f.route(method, testClass)).flatMap(Optional::stream).findFirst();
  }

  /**
   * The deployments the sweep's levels are measured on: the first feature's that names any.
   *
   * @throws IllegalArgumentException naming the deployment and the fix
   */
  public static List<DeploymentSpec> deployments(ExtensionContext context) {
    for (Feature f : ALL) {
      List<DeploymentSpec> named = f.deployments(context);
      if (!named.isEmpty()) return named;
    }
    return List.of();
  }

  /**
   * Adds to {@code setup}'s sweep what every feature adds to it, in the features' {@link Feature#sectionOrder()}.
   *
   * @throws IllegalArgumentException naming the setting or annotation at fault, and the fix
   */
  public static void addTo(SweepSetup setup) {
    for (Feature f : BY_SECTION) f.sweep(setup).forEach(setup.sweep()::add);
  }

  /** Adds to a sweep rebuilt from files (a merge of shards) what its levels alone tell, before the levels. */
  public static void rebuild(SweepRun sweep, List<MeasuredLevel> levels) {
    for (Feature f : BY_SECTION) f.merged(levels).forEach(sweep::add);
  }

  /**
   * What the features record beside a level of {@code context}'s method, in the registry's order.
   *
   * @throws IllegalArgumentException naming the setting at fault
   */
  public static List<LevelRecorder> recorders(ExtensionContext context) {
    return ALL.stream().flatMap(f -> f.recorders(context).stream()).toList();
  }

  /** How a level's replies are judged: the first feature's judge, new for the level; none when no feature judges. */
  public static ReplyJudge replyJudge() {
    return ALL.stream().map(Feature::replyJudge).flatMap(Optional::stream).findFirst().orElse(ReplyJudge.NONE);
  }

  /** The types a sweep's methods may take from the features, in the registry's order. */
  public static List<Parameter> parameters() {
    return ALL.stream().flatMap(f -> f.parameters().stream()).toList();
  }

  /** The parameter of {@code type}, if a feature gives one. */
  public static Optional<Parameter> parameter(Class<?> type) {
    return parameters().stream().filter(p -> p.type() == type).findFirst();
  }

  /** What the features read off a level, those at {@code place}, in the registry's order. */
  public static List<LevelReading> readings(LevelReading.Place place) {
    return ALL.stream().flatMap(f -> f.readings().stream()).filter(r -> r.place() == place).toList();
  }
}
