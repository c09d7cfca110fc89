package dev.llmbench.telemetry;

import java.util.LinkedHashMap;
import java.util.Map;

/** The labels of one Prometheus series key, {@code name{a="1",b="x \"y\""}}: the exposition format's escapes undone. */
final class Labels {

  private Labels() {}

  static String name(String series) {
    int brace = series.indexOf('{');
    return brace < 0 ? series : series.substring(0, brace);
  }

  static Map<String, String> of(String series) {
    Map<String, String> labels = new LinkedHashMap<>();
    int i = series.indexOf('{');
    if (i < 0) return labels;
    i++;
    int n = series.length();
    while (i < n) {
      while (i < n && (series.charAt(i) == ',' || series.charAt(i) == ' ')) i++;
      int eq = series.indexOf('=', i);
      if (eq < 0 || eq + 1 >= n || series.charAt(eq + 1) != '"') break;
      String key = series.substring(i, eq).strip();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      for (; j < n && series.charAt(j) != '"'; j++) {
        char c = series.charAt(j);
        if (c == '\\' && j + 1 < n) {
          char e = series.charAt(++j);
          value.append(e == 'n' ? '\n' : e);
        } else {
          value.append(c);
        }
      }
      labels.put(key, value.toString());
      i = j + 1;
    }
    return labels;
  }
}
