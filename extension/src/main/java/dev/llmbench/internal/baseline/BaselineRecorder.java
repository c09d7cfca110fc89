package dev.llmbench.internal.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import java.util.List;
import org.apiguardian.api.API;

/** Saves a sweep as its baseline when it ends, if its plan says so; before the reports that mention the file. */
@API(status = INTERNAL)
public final class BaselineRecorder implements BenchListener {

  @Override
  public void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
    BaselineFeature.of(sweep).map(BaselineFeature::plan).filter(BaselinePlan::save)
        .ifPresent(plan -> BaselineFile.write(plan.file(), sweep.id(), levels));
  }
}
