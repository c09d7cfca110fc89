package dev.llmbench.internal.format;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How one file format carries one metric ({@code dev.llmbench.Metric}; named only in the text, as the API
 * depends on this package): by which fields, or not at all and why. Each codec keeps
 * a table with an entry for every metric; {@code MetricRoundTripTests} writes every carried one through the
 * format and reads it back, and fails, naming the codec's file, for a metric the table has no entry for.
 *
 * @param fields the fields that carry it; empty when the format does not
 * @param note   how it is read back, or why the format does not carry it
 */
@API(status = INTERNAL)
public record Carriage(Optional<String> fields, String note) {

  /** Carried by {@code fields}, read back as {@code how}. */
  public static Carriage as(String fields, String how) {
    return new Carriage(Optional.of(fields), how);
  }

  /** Not carried, for the reason given. */
  public static Carriage not(String why) {
    return new Carriage(Optional.empty(), why);
  }

  public boolean carried() {
    return fields.isPresent();
  }

  /** A codec's table, in the metrics' order. */
  @SafeVarargs
  public static <M extends Enum<M>> Map<M, Carriage> table(Map.Entry<M, Carriage>... entries) {
    return Collections.unmodifiableMap(new EnumMap<>(Map.ofEntries(entries)));
  }
}
