package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.ServiceLoader;
import org.apiguardian.api.API;

/** The registered {@link Feature}s, in the order the registry file lists them. */
@API(status = INTERNAL)
public final class Features {

  /** Read once: the registry is part of the library, not of a run, so it holds no run's state. */
  private static final List<Feature> ALL = ServiceLoader.load(Feature.class, Feature.class.getClassLoader()).stream()
      .map(ServiceLoader.Provider::get).toList();

  private Features() {}

  /** Every registered feature. */
  public static List<Feature> all() {
    return ALL;
  }
}
