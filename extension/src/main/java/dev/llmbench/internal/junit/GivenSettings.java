package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.config.KeySuggestions;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.spi.Features;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every {@code llmbench.*} key the run was given (system property, JUnit configuration parameter,
 * {@code junit-platform.properties}) and every {@code LLMBENCH_*} environment variable, checked against the known
 * keys (the machinery's and each feature's) before any load: a misspelled key would be ignored without a word, and a
 * run without its URL measures the embedded engine and passes. The error names the nearest known key.
 *
 * <p>JUnit gives an extension one configuration parameter by its key, never the list of them (jqwik, an engine, asked
 * for and got {@code ConfigurationParameters.keySet()}: junit-team/junit-framework#2520). So the list is read from the
 * engine's own {@code ConfigurationParameters} behind the {@link ExtensionContext} where it can be reached (JUnit 5.14
 * and 6 alike), else from what is public: the system properties and {@code junit-platform.properties}.
 */
@API(status = INTERNAL)
public final class GivenSettings {

  static final String PREFIX = "llmbench.";
  static final String ENV_PREFIX = "LLMBENCH_";
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GivenSettings.class);
  private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** One key nobody knows: where it was given, and the known key nearest to it. */
  record Unknown(String key, String source, Optional<String> nearest) {
    String describe() {
      return source + " " + key + nearest.map(n -> " (did you mean " + n + "?)").orElse(" (no key is near it)");
    }
  }

  private GivenSettings() {}

  /**
   * Fails when the run was given a key that is no setting; checked once per run, then per test class only against the
   * variable its {@link LlmEndpoint#apiKeyEnv()} names.
   *
   * @throws ExtensionConfigurationException naming each unknown key, where it came from and the nearest known one
   */
  static void check(ExtensionContext context) {
    @SuppressWarnings("unchecked")
    List<Unknown> unknown = StoreValues.computeIfAbsent(context.getRoot().getStore(NAMESPACE), GivenSettings.class,
        k -> unknown(configurationKeys(context), context::getConfigurationParameter, System.getenv(), Features.settings()),
        List.class);
    if (unknown.isEmpty()) return;
    // A variable a test class names as its key's is the user's own, not a setting.
    String keyVariable = Annotations.nearest(context, LlmEndpoint.class).map(LlmEndpoint::apiKeyEnv).orElse("");
    List<Unknown> left = unknown.stream().filter(u -> !u.key().equals(keyVariable)).toList();
    if (left.isEmpty()) return;
    throw new ExtensionConfigurationException("Configuration error: unknown LLMBench setting" + (left.size() == 1 ? "" : "s")
        + ": " + String.join("; ", left.stream().map(Unknown::describe).toList()) + ". An unknown key would be ignored, so "
        + "nothing runs; every key is in docs/settings.md.");
  }

  /**
   * The keys and variables that are no setting.
   *
   * @param configuration each {@code llmbench.*} key given, with where it came from ({@code system property})
   * @param value         a configuration parameter's value by its key
   * @param environment   the environment; an {@code LLMBENCH_*} variable is a setting's, or one a setting's value names
   *                      (a key's variable such as {@code llmbench.api-key-env=LLMBENCH_KEY}, a {@code ${VAR}} in a header)
   */
  static List<Unknown> unknown(Map<String, String> configuration, Function<String, Optional<String>> value,
      Map<String, String> environment, List<Setting<?>> settings) {
    Set<String> keys = new LinkedHashSet<>();
    Set<String> variables = new LinkedHashSet<>();
    for (Setting<?> s : settings) {
      keys.add(s.key());
      variables.add(s.environmentVariable());
    }
    Set<String> named = new TreeSet<>();
    for (Setting<?> s : settings) {
      named.addAll(words(s.defaultValue()));
      named.addAll(words(value.apply(s.key()).orElse("")));
      named.addAll(words(environment.getOrDefault(s.environmentVariable(), "")));
    }
    List<Unknown> unknown = new ArrayList<>();
    configuration.forEach((key, source) -> {
      if (!keys.contains(key)) unknown.add(new Unknown(key, source, KeySuggestions.nearest(key, keys, PREFIX)));
    });
    new TreeSet<>(environment.keySet()).forEach(name -> {
      if (name.toUpperCase(Locale.ROOT).startsWith(ENV_PREFIX) && !variables.contains(name) && !named.contains(name)) {
        unknown.add(new Unknown(name, "environment variable", KeySuggestions.nearest(name, variables, ENV_PREFIX)));
      }
    });
    return unknown;
  }

  /** The words of a setting's value that could be a variable's name: {@code LLMBENCH_KEY}, {@code ${LLMBENCH_KEY}}. */
  private static Set<String> words(String value) {
    Set<String> words = new LinkedHashSet<>();
    for (String w : value.split("[^A-Za-z0-9_]+")) {
      if (VARIABLE_NAME.matcher(w).matches()) words.add(w);
    }
    return words;
  }

  /** Each {@code llmbench.*} key (any case) given to the run, with where it came from, sorted by key. */
  static Map<String, String> configurationKeys(ExtensionContext context) {
    return configurationKeys(engineParameterKeys(context.getRoot()));
  }

  /** The same, given the engine's configuration parameters' keys when they could be reached. */
  static Map<String, String> configurationKeys(Optional<Set<String>> engineKeys) {
    Map<String, String> sources = new LinkedHashMap<>();
    Set<String> all = new TreeSet<>(System.getProperties().stringPropertyNames());
    PlatformFile platform = platformProperties();
    Properties file = platform.properties();
    all.addAll(file.stringPropertyNames());
    engineKeys.ifPresent(all::addAll);
    for (String key : all) {
      if (!key.toLowerCase(Locale.ROOT).startsWith(PREFIX)) continue;
      sources.put(key, System.getProperty(key) != null ? "system property"
          : file.getProperty(key) != null ? "junit-platform.properties key" + platform.where() : "configuration parameter");
    }
    return sources;
  }

  /**
   * The {@code junit-platform.properties} JUnit reads and where it is, said beside its keys: a copy left in
   * {@code target/test-classes} after the source file was deleted still counts until the next clean build.
   */
  private record PlatformFile(Properties properties, String where) {}

  /** {@code junit-platform.properties} at the class path's root, as the JUnit Platform reads it (the first found). */
  private static PlatformFile platformProperties() {
    Properties p = new Properties();
    String where = "";
    try {
      ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
          .orElse(GivenSettings.class.getClassLoader());
      Enumeration<URL> files = loader.getResources("junit-platform.properties");
      if (files.hasMoreElements()) {
        URL url = files.nextElement();
        where = " (" + ("file".equals(url.getProtocol()) ? url.getPath() : url) + ")";
        try (InputStream in = url.openStream()) {
          p.load(in);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Unreadable here means unreadable for JUnit too: it reports that itself.
    }
    return new PlatformFile(p, where);
  }

  /**
   * The keys of the engine's {@code org.junit.platform.engine.ConfigurationParameters}, found among the fields of the
   * context (and of the configuration objects it holds, three deep), or empty when they cannot be reached (a JUnit
   * that holds them otherwise, or a module path that forbids the look).
   */
  static Optional<Set<String>> engineParameterKeys(Object root) {
    try {
      Object parameters = find(root, 3);
      if (parameters == null) return Optional.empty();
      Method keySet = Class.forName("org.junit.platform.engine.ConfigurationParameters", false,
          parameters.getClass().getClassLoader()).getMethod("keySet");
      Collection<?> keys = (Collection<?>) keySet.invoke(parameters);
      Set<String> strings = new TreeSet<>();
      keys.forEach(k -> strings.add(String.valueOf(k)));
      return Optional.of(strings);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return Optional.empty();
    }
  }

  private static Object find(Object holder, int depth) throws IllegalAccessException {
    if (holder == null || depth < 0) return null;
    if (implementsParameters(holder.getClass())) return holder;
    for (Class<?> c = holder.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) continue;
        if (!f.getType().getSimpleName().contains("Configuration")) continue;
        f.setAccessible(true);
        Object found = find(f.get(holder), depth - 1);
        if (found != null) return found;
      }
    }
    return null;
  }

  private static boolean implementsParameters(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Class<?> i : c.getInterfaces()) {
        if (i.getName().equals("org.junit.platform.engine.ConfigurationParameters")) return true;
      }
    }
    return false;
  }
}
