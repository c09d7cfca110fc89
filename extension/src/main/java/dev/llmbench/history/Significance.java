package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** How a candidate change point is judged significant. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Significance {
  /**
   * Apache Otava's default (Fleming et al., "Hunter", ICPE 2023): E-divisive picks candidates in sliding windows,
   * Student's two-sided t-test between the stretches before and after judges them, and a merge step drops the
   * weakest until every one left passes. Deterministic.
   */
  T_TEST,
  /**
   * The original E-divisive means (Matteson and James; MongoDB's CI, Daly et al., ICPE 2020), Otava's
   * {@code --orig-edivisive}: over the whole series, a candidate is significant when few of the seeded random
   * permutations inside each stretch reach its statistic.
   */
  PERMUTATION
}
