package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Workload;
import java.lang.annotation.Annotation;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A benchmark method as a {@link WorkloadSource} is planned from it: its annotations (the method's first, then its
 * class's), its {@code @Workload}, and the JUnit context its settings are read from.
 */
@API(status = INTERNAL)
public interface PlanContext {

  /** The annotation of {@code type} nearest the method, if any. */
  <A extends Annotation> Optional<A> nearest(Class<A> type);

  /** The annotation of {@code type} on the method itself (a sweep's kind is the method's, never its class's). */
  <A extends Annotation> Optional<A> onMethod(Class<A> type);

  /** Whether the method or its class declares {@code type}. */
  default boolean declares(Class<? extends Annotation> type) {
    return nearest(type).isPresent();
  }

  /** The method's {@code @Workload}, or its defaults when it declares none. */
  Workload workload();

  /**
   * The JUnit context the method runs in (settings, the store); only while a sweep is planned, not when the method
   * is merely asked whether it is a sweep.
   *
   * @throws IllegalStateException when there is none
   */
  ExtensionContext extension();
}
