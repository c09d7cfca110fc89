package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * How long, in tokens, each request's synthetic prompt or output is: a pure function of a seed and the
 * request's index, so runs (and shards, which send every n-th index) repeat exactly. Written as text that an
 * annotation attribute or a setting carries:
 * <ul>
 *   <li>{@code 128} or {@code fixed(128)}</li>
 *   <li>{@code uniform(64,512)}: every whole number from 64 to 512, equally likely</li>
 *   <li>{@code normal(480,240,min=1,max=2048)}: mean and standard deviation, drawn again until within the
 *       bounds (AIPerf's truncated normal; guidellm's {@code prompt_tokens}, {@code _stdev}, {@code _min}, {@code _max})</li>
 *   <li>{@code lognormal(512,400,max=8192)}: mean and median (AIPerf's {@code {mean, median}}), a long right tail</li>
 *   <li>{@code empirical(128:50,512:30,2048:20)}: lengths with relative weights</li>
 * </ul>
 * Every shape takes {@code min=} and {@code max=} (default min 1, no max).
 */
@API(status = INTERNAL)
public sealed interface LengthDistribution {

  String EXAMPLES = "128, uniform(64,512), normal(480,240,min=1,max=2048), lognormal(512,400,max=8192) or "
      + "empirical(128:50,512:30,2048:20)";

  /** The length of request {@code index} under {@code seed}. */
  int draw(long seed, int index);

  /** The expected length (of the bounded shape only approximately, for lognormal and normal). */
  double mean();

  /** The canonical text, which {@link #parse} reads back to an equal distribution. */
  String spec();

  record Fixed(int length) implements LengthDistribution {
    public Fixed {
      if (length < 1) throw new IllegalArgumentException("a length must be at least 1, was " + length);
    }

    @Override
    public int draw(long seed, int index) {
      return length;
    }

    @Override
    public double mean() {
      return length;
    }

    @Override
    public String spec() {
      return Integer.toString(length);
    }
  }

  record Uniform(int low, int high) implements LengthDistribution {
    public Uniform {
      if (low < 1 || high < low) throw new IllegalArgumentException("uniform(low,high) needs 1 <= low <= high, was " + low + ", " + high);
    }

    @Override
    public int draw(long seed, int index) {
      return low + random(seed, index).nextInt(high - low + 1);
    }

    @Override
    public double mean() {
      return (low + (double) high) / 2;
    }

    @Override
    public String spec() {
      return "uniform(" + low + "," + high + ")";
    }
  }

  record Normal(double mean, double stdev, int min, int max) implements LengthDistribution {
    public Normal {
      if (!(mean > 0) || !(stdev >= 0)) throw new IllegalArgumentException("normal(mean,stdev) needs mean > 0 and stdev >= 0, was "
          + num(mean) + ", " + num(stdev));
      bounds(min, max);
    }

    @Override
    public int draw(long seed, int index) {
      SplittableRandom r = random(seed, index);
      return bounded(() -> mean + stdev * gaussian(r), min, max, mean);
    }

    @Override
    public String spec() {
      return "normal(" + num(mean) + "," + num(stdev) + bounds(min, max, "") + ")";
    }
  }

  /** {@code mean} and {@code median} of the lengths: mu = ln(median), sigma = sqrt(2 ln(mean / median)). */
  record LogNormal(double mean, double median, int min, int max) implements LengthDistribution {
    public LogNormal {
      if (!(median > 0) || !(mean >= median)) {
        throw new IllegalArgumentException("lognormal(mean,median) needs mean >= median > 0 (a right tail), was "
            + num(mean) + ", " + num(median));
      }
      bounds(min, max);
    }

    @Override
    public int draw(long seed, int index) {
      SplittableRandom r = random(seed, index);
      double mu = Math.log(median);
      double sigma = Math.sqrt(2 * Math.log(mean / median));
      return bounded(() -> Math.exp(mu + sigma * gaussian(r)), min, max, median);
    }

    @Override
    public String spec() {
      return "lognormal(" + num(mean) + "," + num(median) + bounds(min, max, "") + ")";
    }
  }

  record Empirical(int[] lengths, double[] weights) implements LengthDistribution {
    public Empirical {
      if (lengths.length == 0 || lengths.length != weights.length) {
        throw new IllegalArgumentException("empirical(...) needs at least one length:weight pair");
      }
      for (int i = 0; i < lengths.length; i++) {
        if (lengths[i] < 1) throw new IllegalArgumentException("length " + lengths[i] + " must be at least 1");
        if (!(weights[i] > 0) || Double.isInfinite(weights[i])) {
          throw new IllegalArgumentException("the weight of " + lengths[i] + " must be positive, was " + num(weights[i]));
        }
      }
      lengths = lengths.clone();
      weights = weights.clone();
    }

    @Override
    public int draw(long seed, int index) {
      double total = Arrays.stream(weights).sum();
      double u = random(seed, index).nextDouble() * total;
      for (int i = 0; i < lengths.length; i++) {
        u -= weights[i];
        if (u < 0) return lengths[i];
      }
      return lengths[lengths.length - 1];
    }

    @Override
    public double mean() {
      double total = Arrays.stream(weights).sum();
      double sum = 0;
      for (int i = 0; i < lengths.length; i++) sum += lengths[i] * weights[i];
      return sum / total;
    }

    @Override
    public String spec() {
      StringBuilder s = new StringBuilder("empirical(");
      for (int i = 0; i < lengths.length; i++) s.append(i == 0 ? "" : ",").append(lengths[i]).append(':').append(num(weights[i]));
      return s.append(')').toString();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Empirical e && Arrays.equals(lengths, e.lengths) && Arrays.equals(weights, e.weights);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(lengths) + Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
      return spec();
    }
  }

  /**
   * Reads a distribution's text.
   *
   * @throws IllegalArgumentException saying what is wrong and what would be accepted
   */
  static LengthDistribution parse(String text) {
    String t = text.strip().replace(" ", "").toLowerCase(Locale.ROOT);
    try {
      if (t.matches("\\d+")) return new Fixed(integer(t, "the length"));
      int open = t.indexOf('(');
      if (open < 1 || !t.endsWith(")")) throw new IllegalArgumentException("it is neither a whole number nor shape(arguments)");
      String shape = t.substring(0, open);
      String inner = t.substring(open + 1, t.length() - 1);
      List<String> positional = new ArrayList<>();
      int min = 1;
      int max = Integer.MAX_VALUE;
      for (String arg : inner.isEmpty() ? new String[0] : inner.split(",", -1)) {
        if (arg.startsWith("min=")) {
          min = integer(arg.substring(4), "min");
        } else if (arg.startsWith("max=")) {
          max = integer(arg.substring(4), "max");
        } else if (arg.contains("=")) {
          throw new IllegalArgumentException("'" + arg + "' is not an option: only min= and max= are");
        } else {
          positional.add(arg);
        }
      }
      return switch (shape) {
        case "fixed" -> {
          arguments(shape, positional, 1, "fixed(128)");
          yield new Fixed(integer(positional.get(0), "the length"));
        }
        case "uniform" -> {
          arguments(shape, positional, 2, "uniform(64,512)");
          yield new Uniform(integer(positional.get(0), "low"), integer(positional.get(1), "high"));
        }
        case "normal", "gaussian" -> {
          arguments(shape, positional, 2, "normal(480,240,min=1,max=2048)");
          yield new Normal(number(positional.get(0), "mean"), number(positional.get(1), "stdev"), min, max);
        }
        case "lognormal", "log-normal" -> {
          arguments(shape, positional, 2, "lognormal(512,400,max=8192)");
          yield new LogNormal(number(positional.get(0), "mean"), number(positional.get(1), "median"), min, max);
        }
        case "empirical", "buckets" -> {
          if (positional.isEmpty()) throw new IllegalArgumentException("empirical(...) lists length:weight pairs, e.g. empirical(128:50,512:50)");
          int[] lengths = new int[positional.size()];
          double[] weights = new double[positional.size()];
          for (int i = 0; i < lengths.length; i++) {
            String[] pair = positional.get(i).split(":", -1);
            if (pair.length != 2) throw new IllegalArgumentException("'" + positional.get(i) + "' is not length:weight, e.g. 512:30");
            lengths[i] = integer(pair[0], "a length");
            weights[i] = number(pair[1], "a weight");
          }
          yield new Empirical(lengths, weights);
        }
        default -> throw new IllegalArgumentException("'" + shape + "' is not a shape: fixed, uniform, normal, lognormal, empirical");
      };
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not a length distribution: " + e.getMessage() + "; write e.g. "
          + EXAMPLES, e);
    }
  }

  private static void arguments(String shape, List<String> given, int wanted, String example) {
    if (given.size() != wanted) {
      throw new IllegalArgumentException(shape + " takes " + wanted + " number" + (wanted == 1 ? "" : "s") + " (and min=, max=), got "
          + given.size() + ", e.g. " + example);
    }
  }

  private static int integer(String s, String what) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " '" + s + "' is not a whole number");
    }
  }

  private static double number(String s, String what) {
    try {
      double d = Double.parseDouble(s);
      if (!Double.isFinite(d)) throw new NumberFormatException();
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " '" + s + "' is not a number");
    }
  }

  private static void bounds(int min, int max) {
    if (min < 1) throw new IllegalArgumentException("min must be at least 1, was " + min);
    if (max < min) throw new IllegalArgumentException("max " + max + " is below min " + min);
  }

  private static String bounds(int min, int max, String none) {
    return (min != 1 ? ",min=" + min : "") + (max != Integer.MAX_VALUE ? ",max=" + max : "") + none;
  }

  private static String num(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  /** A generator of its own for each (seed, index): SplitMix64's finaliser over both, so neighbours are unrelated. */
  private static SplittableRandom random(long seed, int index) {
    long z = seed * 0x9E3779B97F4A7C15L + index;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return new SplittableRandom(z ^ (z >>> 31));
  }

  private static double gaussian(SplittableRandom r) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - r.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
  }

  /** Draws until a rounded value falls in [min, max] (AIPerf's rejection sampling); after 1,000 misses, the fallback clamped. */
  private static int bounded(java.util.function.DoubleSupplier draw, int min, int max, double fallback) {
    for (int i = 0; i < 1000; i++) {
      double v = Math.rint(draw.getAsDouble());
      if (v >= min && v <= max) return (int) v;
    }
    return (int) Math.max(min, Math.min(max, Math.rint(fallback)));
  }
}
