package dev.llmbench.capacity;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.SweepSetup;
import java.lang.reflect.Method;
import java.util.List;
import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The capacity search in the registry: a {@link CapacitySearch}'s sweep of probes reports the capacity found
 * ({@link CapacityExtension} runs the search and hands its answers to the feature).
 */
@API(status = INTERNAL)
public final class CapacityRegistration implements Feature {

  @Override
  public String key() {
    return "capacity";
  }

  /** After the deployments' comparison, before the baseline: the search's answer is the sweep's conclusion. */
  @Override
  public int sectionOrder() {
    return 200;
  }

  @Override
  public boolean runsLevels(Method method) {
    return AnnotationSupport.isAnnotated(method, CapacitySearch.class);
  }

  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    return setup.kind() == SweepSetup.Kind.SEARCH ? List.of(new CapacityFeature()) : List.of();
  }
}
