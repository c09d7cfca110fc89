package dev.llmbench.drift;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * Assertions on {@link Drifts}: bounds every candidate measured at the load must keep, each call failing with every
 * candidate that breaks its bound. A candidate without logprobs fails a bound on a logprob figure (never a silent 0).
 *
 * <pre>{@code
 * DriftAssert.assertThat(drift).identicalShareAtLeast(0.5).meanKldAtMost(0.1);
 * DriftAssert.assertThat(drift).candidate("q8_0").top1AgreementAtLeast(0.99);
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DriftAssert {

  private final Drifts drifts;
  private final Optional<String> candidate;

  private DriftAssert(Drifts drifts, Optional<String> candidate) {
    this.drifts = drifts;
    this.candidate = candidate;
  }

  /**
   * {@return assertions on every candidate of {@code drifts}}
   *
   * @param drifts what the level's test method was given
   */
  public static DriftAssert assertThat(Drifts drifts) {
    return new DriftAssert(drifts, Optional.empty());
  }

  /**
   * {@return assertions on {@code name} only, which must be measured at this load}
   *
   * @param name a candidate deployment
   */
  public DriftAssert candidate(String name) {
    return new DriftAssert(drifts, Optional.of(name));
  }

  /**
   * Every candidate's share of replies identical to the reference's is at least {@code share}.
   *
   * @param share 0 to 1
   * @return this assertion
   */
  public DriftAssert identicalShareAtLeast(double share) {
    return check("identical share", c -> Optional.of(c.identicalShare().estimate()), share, true, DriftAssert::percent);
  }

  /**
   * Every candidate's mean number of leading tokens in common with the reference is at least {@code tokens}.
   *
   * @param tokens a number of tokens
   * @return this assertion
   */
  public DriftAssert commonPrefixAtLeast(double tokens) {
    return check("leading tokens in common", c -> Optional.of(c.commonPrefix().estimate()), tokens, true,
        v -> String.format(Locale.ROOT, "%.1f", v));
  }

  /**
   * Every candidate's per-token top-1 agreement is at least {@code share}.
   *
   * @param share 0 to 1
   * @return this assertion
   */
  public DriftAssert top1AgreementAtLeast(double share) {
    return check("top-1 agreement", c -> c.top1Agreement().map(a -> a.estimate()), share, true, DriftAssert::percent);
  }

  /**
   * Every candidate's mean KL divergence from the reference is at most {@code nats}.
   *
   * @param nats a KL divergence
   * @return this assertion
   */
  public DriftAssert meanKldAtMost(double nats) {
    return check("mean KLD", c -> c.meanKld().map(k -> k.estimate()), nats, false, DriftFeature::kld);
  }

  private DriftAssert check(String figure, Function<DriftComparison, Optional<Double>> value, double bound, boolean atLeast,
      Function<Double, String> format) {
    List<String> violations = new ArrayList<>();
    List<DriftComparison> judged = new ArrayList<>();
    if (candidate.isPresent()) {
      Optional<DriftComparison> c = drifts.of(candidate.get());
      if (c.isEmpty()) {
        throw new AssertionError("[" + drifts.load() + "] drift of " + candidate.get() + " against " + drifts.reference()
            + ": not measured at this load (measured: " + drifts.all().stream().map(DriftComparison::candidate).toList() + ")");
      }
      judged.add(c.get());
    } else {
      judged.addAll(drifts.all());
      if (judged.isEmpty()) {
        throw new AssertionError("[" + drifts.load() + "] drift against " + drifts.reference() + ": no candidate measured at "
            + "this load yet; assert in the last deployment's test, or in an @AfterSweep method");
      }
    }
    for (DriftComparison c : judged) {
      String name = "[" + c.load() + " · " + c.candidate() + ": " + figure + " vs " + c.reference() + "]";
      Optional<Double> v = value.apply(c);
      if (v.isEmpty()) {
        violations.add(name + " is not measured: the replies came without logprobs");
      } else if (atLeast ? v.get() < bound : v.get() > bound) {
        violations.add(name + " is " + format.apply(v.get()) + ", " + (atLeast ? "below the required " : "above the allowed ")
            + format.apply(bound));
      }
    }
    if (!violations.isEmpty()) throw new AssertionError(String.join("\n", violations));
    return this;
  }

  private static String percent(double v) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }
}
