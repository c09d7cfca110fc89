package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.engine.PerformanceProfile;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One deployment of a comparison, as {@code @Deployment} or {@code llmbench.deployments} gives it; what it
 * leaves unset comes from the class's endpoint settings.
 *
 * @param name    unique in the suite: letters, digits, {@code .}, {@code _}, {@code -}
 * @param baseUrl the server root, or empty for an embedded engine
 * @param profile the embedded engine's profile, or empty for the configured one
 * @param model   the model id, or empty to inherit
 * @param api     chat or completions, or empty to inherit
 * @param gpuCount     GPUs the deployment holds, or 0 to inherit the sweep's ({@code @DeploymentFacts})
 * @param gpuHourPrice dollars per GPU-hour, or 0 to inherit the sweep's
 * @param serve   a launched candidate's serve parameters (flag or {@code ${placeholder}} to value, in order), applied to
 *                the class's launch command or container command; empty for a deployment given by URL, or launched as
 *                the command stands
 */
@API(status = INTERNAL)
public record DeploymentSpec(String name, Optional<URI> baseUrl, Optional<PerformanceProfile> profile, Optional<String> model,
    Optional<ApiStyle> api, int gpuCount, double gpuHourPrice, Map<String, String> serve) {

  static final String EXAMPLE = "a=http://gpu-node-1:8000,model=kimi;b=embedded:gqa-dense";

  public DeploymentSpec {
    if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("deployment name '" + name + "' must be letters, digits, '.', '_' or '-', e.g. int4");
    }
    if (baseUrl.isPresent() && profile.isPresent()) {
      throw new IllegalArgumentException("deployment '" + name + "' has both a base URL and an embedded profile; give one");
    }
    if (!serve.isEmpty() && (baseUrl.isPresent() || profile.isPresent())) {
      throw new IllegalArgumentException("deployment '" + name + "' has serve parameters " + serve.keySet() + " and "
          + (baseUrl.isPresent() ? "a base URL" : "an embedded profile") + ": serve parameters are for a candidate the suite "
          + "launches (@LaunchServer or @LaunchContainer); give one or the other");
    }
    serve = Collections.unmodifiableMap(new LinkedHashMap<>(serve));
  }

  /** Without a GPU count or price of its own, nor serve parameters. */
  public DeploymentSpec(String name, Optional<URI> baseUrl, Optional<PerformanceProfile> profile, Optional<String> model,
      Optional<ApiStyle> api) {
    this(name, baseUrl, profile, model, api, 0, 0, Map.of());
  }

  /** A candidate the suite launches with {@code serve} applied to the class's launch. */
  public static DeploymentSpec launched(String name, Map<String, String> serve) {
    return new DeploymentSpec(name, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0, 0, serve);
  }

  /** This deployment with {@code serve} as its serve parameters. */
  public DeploymentSpec withServe(Map<String, String> serve) {
    return new DeploymentSpec(name, baseUrl, profile, model, api, gpuCount, gpuHourPrice, serve);
  }

  /** From annotation attributes, empty meaning unset. */
  public static DeploymentSpec of(String name, String baseUrl, String model, String api, String embeddedProfile) {
    return of(name, baseUrl, model, api, embeddedProfile, 0, 0);
  }

  /** From annotation attributes, empty or 0 meaning unset. */
  public static DeploymentSpec of(String name, String baseUrl, String model, String api, String embeddedProfile,
      int gpuCount, double gpuHourPrice) {
    if (gpuCount < 0) throw new IllegalArgumentException("deployment '" + name + "': gpuCount " + gpuCount + " is negative");
    if (!(gpuHourPrice >= 0) || Double.isInfinite(gpuHourPrice)) {
      throw new IllegalArgumentException("deployment '" + name + "': gpuHourPrice " + gpuHourPrice
          + " is not a number of dollars");
    }
    return new DeploymentSpec(name,
        baseUrl.isBlank() ? Optional.empty() : Optional.of(url(name, baseUrl.strip())),
        embeddedProfile.isBlank() ? Optional.empty() : Optional.of(profile(name, embeddedProfile.strip())),
        model.isBlank() ? Optional.empty() : Optional.of(model.strip()),
        api.isBlank() ? Optional.empty() : Optional.of(api(name, api.strip())), gpuCount, gpuHourPrice, Map.of());
  }

  /**
   * {@code a=http://h1:8000,model=m;b=embedded:gqa-dense;c=launch,serve.max-num-seqs=64}: entries by {@code ;}, options
   * by {@code ,}; {@code launch} is a candidate the class's launch starts, {@code serve.<flag>} its serve parameters.
   */
  public static List<DeploymentSpec> parseList(String text) {
    List<DeploymentSpec> specs = new ArrayList<>();
    for (String entry : text.split(";")) {
      if (entry.isBlank()) continue;
      String[] parts = entry.strip().split(",");
      String[] head = parts[0].split("=", 2);
      if (head.length != 2 || head[0].isBlank() || head[1].isBlank()) {
        throw new IllegalArgumentException("'" + entry.strip() + "' is not name=url or name=embedded:profile; write e.g. " + EXAMPLE);
      }
      String name = head[0].strip();
      String target = head[1].strip();
      String model = "";
      String api = "";
      int gpus = 0;
      double price = 0;
      Map<String, String> serve = new LinkedHashMap<>();
      for (int i = 1; i < parts.length; i++) {
        String[] option = parts[i].split("=", 2);
        String key = option[0].strip();
        if (option.length == 2 && key.startsWith("serve.") && key.length() > "serve.".length()) {
          serve.put(key.substring("serve.".length()), option[1].strip());
          continue;
        }
        if (option.length != 2 || !List.of("model", "api", "gpus", "gpu-hour-price").contains(key)) {
          throw new IllegalArgumentException("deployment '" + name + "': '" + parts[i].strip() + "' is not model=..., "
              + "api=..., gpus=..., gpu-hour-price=... or serve.<flag>=...");
        }
        try {
          switch (key) {
            case "model" -> model = option[1];
            case "api" -> api = option[1];
            case "gpus" -> gpus = Integer.parseInt(option[1].strip());
            default -> price = Double.parseDouble(option[1].strip());
          }
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("deployment '" + name + "': '" + parts[i].strip() + "' is not a number; write "
              + "e.g. gpus=8,gpu-hour-price=2.5", e);
        }
      }
      // launch: a candidate the class's @LaunchServer or @LaunchContainer starts, its serve.<flag> options applied.
      boolean launched = target.equals("launch");
      boolean embedded = target.equals("embedded") || target.startsWith("embedded:");
      String profile = target.startsWith("embedded:") ? target.substring("embedded:".length()) : "";
      specs.add(of(name, embedded || launched ? "" : target, model, api, profile, gpus, price).withServe(serve));
    }
    if (specs.isEmpty()) throw new IllegalArgumentException("it lists no deployment; write e.g. " + EXAMPLE);
    return checkedNames(specs);
  }

  /** The list, if no two deployments share a name. */
  public static List<DeploymentSpec> checkedNames(List<DeploymentSpec> specs) {
    Set<String> seen = new HashSet<>();
    for (DeploymentSpec s : specs) {
      if (!seen.add(s.name())) throw new IllegalArgumentException("deployment '" + s.name() + "' is named twice; name each once");
    }
    return List.copyOf(specs);
  }

  private static URI url(String name, String text) {
    try {
      return SettingKeys.baseUrl(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("deployment '" + name + "' URL '" + text + "': " + e.getMessage(), e);
    }
  }

  private static PerformanceProfile profile(String name, String text) {
    try {
      return SettingKeys.profile(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("deployment '" + name + "': '" + text + "' is an " + e.getMessage(), e);
    }
  }

  private static ApiStyle api(String name, String text) {
    try {
      return SettingKeys.api(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("deployment '" + name + "' api '" + text + "': " + e.getMessage(), e);
    }
  }
}
