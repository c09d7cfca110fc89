package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Which generation requests get which fault, from a spec such as {@code http500:5%,reset:2%,drop:every5}.
 *
 * <p>Generation requests are numbered 1, 2, 3... in the order the engine takes them (after the API-key and
 * readiness checks). Request n gets at most one fault: the first {@code everyN} entry with n divisible by N,
 * otherwise one drawn from the percentages by a random number that depends only on the seed and n. So the
 * same seed gives the same fault to the same request number in every run, and {@code everyN} counts are
 * exact: {@code drop:every5} over 40 requests drops 8.
 *
 * @param entries in spec order
 */
@API(status = INTERNAL)
public record FaultPlan(List<Entry> entries) {

  /** No faults. */
  public static final FaultPlan NONE = new FaultPlan(List.of());

  /**
   * One part of a spec: a kind with either a percentage of requests or a period.
   *
   * @param percent share of requests in percent, 0 when {@code every} is used
   * @param every   every how many requests, 0 when {@code percent} is used
   */
  public record Entry(FaultKind kind, double percent, int every) {
    public Entry {
      if ((percent > 0) == (every > 0)) throw new IllegalArgumentException("an entry has either a percentage or a period");
    }

    @Override
    public String toString() {
      return kind.spec() + ":" + (every > 0 ? "every" + every : formatPercent(percent) + "%");
    }
  }

  public FaultPlan {
    entries = List.copyOf(entries);
  }

  /**
   * Parses a spec: comma-separated {@code kind:rate} parts, where rate is a percentage ({@code 5%},
   * {@code 0.5%}) or a period ({@code every5}, also written {@code every:5}). Blank means no faults.
   *
   * @throws IllegalArgumentException naming the bad part, what was wrong, and what is accepted
   */
  public static FaultPlan parse(String spec) {
    if (spec == null || spec.isBlank()) return NONE;
    List<Entry> entries = new ArrayList<>();
    Set<FaultKind> seen = EnumSet.noneOf(FaultKind.class);
    double total = 0;
    for (String raw : spec.split(",", -1)) {
      String part = raw.strip();
      int colon = part.indexOf(':');
      if (colon < 0) {
        throw bad(spec, part, "it has no rate; write kind:rate, e.g. " + example());
      }
      String name = part.substring(0, colon);
      FaultKind kind = FaultKind.bySpec(name).orElseThrow(() -> bad(spec, part,
          "'" + name.strip() + "' is not a fault kind; the kinds are " + FaultKind.accepted()));
      if (!seen.add(kind)) throw bad(spec, part, "'" + kind + "' appears more than once");
      Entry entry = entry(spec, part, kind, part.substring(colon + 1).strip().toLowerCase(Locale.ROOT));
      total += entry.percent();
      entries.add(entry);
    }
    if (total > 100 + 1e-9) {
      throw new IllegalArgumentException("fault spec '" + spec + "': the percentages add up to " + formatPercent(total)
          + "%, more than 100%");
    }
    return new FaultPlan(entries);
  }

  private static Entry entry(String spec, String part, FaultKind kind, String rate) {
    try {
      if (rate.startsWith("every")) {
        String n = rate.substring(5).strip();
        int every = Integer.parseInt(n.startsWith(":") ? n.substring(1).strip() : n); // every5, every 5, every:5
        if (every < 1) throw bad(spec, part, "the period must be at least 1 (every1 = every request)");
        return new Entry(kind, 0, every);
      }
      if (rate.endsWith("%")) {
        double percent = Double.parseDouble(rate.substring(0, rate.length() - 1).strip());
        if (!(percent > 0 && percent <= 100)) throw bad(spec, part, "the percentage must be above 0% and at most 100%");
        return new Entry(kind, percent, 0);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(spec, part, "'" + rate + "' is not a rate; use a percentage such as 5% or a period such as every5");
  }

  private static IllegalArgumentException bad(String spec, String part, String why) {
    return new IllegalArgumentException("fault spec '" + spec + "', part '" + part + "': " + why
        + " (accepted: comma-separated kind:N% or kind:everyN, e.g. " + example() + ")");
  }

  private static String example() {
    return "http500:5%,reset:2%,drop:every5";
  }

  private static String formatPercent(double percent) {
    return percent == Math.rint(percent) ? String.valueOf((long) percent) : String.valueOf(percent);
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The kinds this plan can inject, in spec order. */
  public List<FaultKind> kinds() {
    return entries.stream().map(Entry::kind).toList();
  }

  /** The fault for generation request number {@code n} (from 1), if any. */
  public Optional<FaultKind> faultFor(long n, long seed) {
    for (Entry e : entries) {
      if (e.every() > 0 && n % e.every() == 0) return Optional.of(e.kind());
    }
    double draw = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n).nextDouble() * 100;
    double upTo = 0;
    for (Entry e : entries) {
      if (e.percent() <= 0) continue;
      upTo += e.percent();
      if (draw < upTo) return Optional.of(e.kind());
    }
    return Optional.empty();
  }

  /** The spec this plan parses from, e.g. {@code http500:5%,drop:every5}; empty for none. */
  @Override
  public String toString() {
    return entries.stream().map(Entry::toString).collect(Collectors.joining(","));
  }
}
