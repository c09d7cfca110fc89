package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.ServerFigures;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Speculative decoding's acceptance falls with load: from the lowest to the highest load that speculated, the
 * acceptance rate (or, where the server gives only that, the mean accepted length) fell by {@value #FALL} of its value
 * or more. Each verified step costs the whole batch a forward pass over the drafts; with fewer drafts accepted, it
 * buys fewer tokens, and at a high batch the step is compute-bound, so speculation stops paying.
 */
final class SpeculationDetector implements CurveDetector {

  /** The relative fall of acceptance that makes a finding: beyond the step-to-step wobble of a shared workload. */
  static final double FALL = 0.15;

  @Override
  public Optional<Finding> detect(Curve curve) {
    List<SweepLevelResult> speculated = curve.levels().stream()
        .filter(l -> l.serverFigures().flatMap(ServerFigures::speculation).isPresent()).toList();
    if (speculated.size() < 2) return Optional.empty();
    SweepLevelResult lo = speculated.get(0);
    SweepLevelResult hi = speculated.get(speculated.size() - 1);
    ServerFigures.Speculation a = lo.serverFigures().flatMap(ServerFigures::speculation).orElseThrow();
    ServerFigures.Speculation b = hi.serverFigures().flatMap(ServerFigures::speculation).orElseThrow();
    boolean rates = !Double.isNaN(a.acceptanceRate()) && !Double.isNaN(b.acceptanceRate()) && a.acceptanceRate() > 0;
    double fall = rates ? 1 - b.acceptanceRate() / a.acceptanceRate() : 1 - b.meanAcceptedLength() / a.meanAcceptedLength();
    if (!(fall >= FALL)) return Optional.empty();
    String summary = String.format(Locale.ROOT, "speculative decoding's acceptance fell with load: %s at %s to %s at %s "
        + "(mean accepted length %.2f to %.2f tokens per step): each step's drafts buy fewer tokens as the batch grows, "
        + "so speculation pays less at %s", rates ? Formats.percent(a.acceptanceRate()) : "-", lo.label(),
        rates ? Formats.percent(b.acceptanceRate()) : "-", hi.label(), a.meanAcceptedLength(), b.meanAcceptedLength(),
        hi.label());
    FindingBuilder f = new FindingBuilder(FindingKind.SPECULATION_FALLS, summary, List.of(lo, hi))
        .evidence("speculative acceptance rate at " + lo.label(), a.acceptanceRate(), "fraction")
        .evidence("speculative acceptance rate at " + hi.label(), b.acceptanceRate(), "fraction")
        .evidence("mean accepted length at " + lo.label(), a.meanAcceptedLength(), "tokens")
        .evidence("mean accepted length at " + hi.label(), b.meanAcceptedLength(), "tokens");
    if (a.drafts() >= 0) f.evidence("speculative drafts at " + lo.label(), a.drafts(), "drafts");
    if (b.drafts() >= 0) f.evidence("speculative drafts at " + hi.label(), b.drafts(), "drafts");
    f.likely("drafts that match the target less under load", "fewer of each step's proposed tokens were accepted at "
        + hi.label() + " than at " + lo.label(), "measure the same load with speculation off: above the load where it "
        + "stops paying, turn it off or shorten the drafts (vLLM num_speculative_tokens, SGLang speculative_num_steps)");
    return Optional.of(f.build());
  }
}
