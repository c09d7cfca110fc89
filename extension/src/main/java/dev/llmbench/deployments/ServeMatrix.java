package dev.llmbench.deployments;

import dev.llmbench.internal.config.DeploymentSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The candidates of a parameter matrix: every combination of the {@link ServeParam}s' values, crossed as
 * {@code itertools.product} crosses them (the first parameter varying slowest), each named after its values as
 * {@code vllm bench sweep serve} names a combination ({@code ParameterSweepItem.name}: {@code k=v-k=v}), in the
 * letters a deployment's name allows: {@code max-num-seqs-64_enable-prefix-caching}.
 */
final class ServeMatrix {

  private ServeMatrix() {}

  /** @throws IllegalArgumentException naming the parameter at fault and the fix */
  static List<DeploymentSpec> candidates(List<ServeParam> params) {
    if (params.isEmpty()) return List.of();
    List<Map<String, String>> combos = new ArrayList<>(List.of(new LinkedHashMap<>()));
    List<List<String>> names = new ArrayList<>(List.of(List.of()));
    for (ServeParam p : params) {
      check(p);
      List<Map<String, String>> nextCombos = new ArrayList<>();
      List<List<String>> nextNames = new ArrayList<>();
      for (int c = 0; c < combos.size(); c++) {
        for (int v = 0; v < p.values().length; v++) {
          Map<String, String> combo = new LinkedHashMap<>(combos.get(c));
          combo.put(p.name(), p.values()[v]);
          nextCombos.add(combo);
          List<String> name = new ArrayList<>(names.get(c));
          name.add(p.labels().length == 0 ? part(p.name(), p.values()[v]) : p.labels()[v]);
          nextNames.add(name);
        }
      }
      combos = nextCombos;
      names = nextNames;
    }
    List<DeploymentSpec> candidates = new ArrayList<>();
    for (int i = 0; i < combos.size(); i++) candidates.add(DeploymentSpec.launched(String.join("_", names.get(i)), combos.get(i)));
    return candidates;
  }

  /** A {@code key=value} word of {@link Deployment#serve()}, read into {@code into}. */
  static void read(String deployment, String word, Map<String, String> into) {
    int eq = word.indexOf('=');
    if (eq < 1) {
      throw new IllegalArgumentException("deployment '" + deployment + "' serve parameter '" + word + "' is not "
          + "name=value; write e.g. max-num-seqs=64 or enable-prefix-caching=true");
    }
    into.put(word.substring(0, eq).strip(), word.substring(eq + 1).strip());
  }

  private static void check(ServeParam p) {
    if (p.name().isBlank() || p.values().length == 0) {
      throw new IllegalArgumentException("@ServeParam(name = \"" + p.name() + "\") needs a name and at least one value");
    }
    if (p.labels().length != 0 && p.labels().length != p.values().length) {
      throw new IllegalArgumentException("@ServeParam(name = \"" + p.name() + "\") has " + p.values().length + " values and "
          + p.labels().length + " labels; give one label per value, or none");
    }
  }

  /** {@code max-num-seqs-64}; a boolean as the flag ({@code true}) or its {@code no-} form; an empty value as unset. */
  private static String part(String name, String value) {
    String key = name.replaceAll("^-+|^\\$\\{|}$", "");
    String part = switch (value) {
      case "true" -> key;
      case "false" -> "no-" + key;
      case "" -> key + "-unset";
      default -> key + "-" + value;
    };
    return part.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
