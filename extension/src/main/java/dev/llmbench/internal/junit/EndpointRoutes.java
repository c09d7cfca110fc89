package dev.llmbench.internal.junit;

import dev.llmbench.LlmClient;
import dev.llmbench.internal.core.EndpointRoute;
import dev.llmbench.internal.spi.Features;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The routes a test class sends to, read from its tests' workloads, so that its endpoint's readiness wait probes
 * those and no other: a sweep or a feature's benchmark (a capacity search) sends where the registered features say
 * ({@code /v1/embeddings} for {@code @Embeddings}), else generates, and a plain test generates when it takes an
 * {@link LlmClient}.
 */
final class EndpointRoutes {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EndpointRoutes.class);

  private EndpointRoutes() {}

  /** The routes of every test of the context's class, read once per class. */
  @SuppressWarnings("unchecked")
  static Set<EndpointRoute> ofClass(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    return StoreValues.computeIfAbsent(context.getRoot().getStore(NAMESPACE), testClass, c -> {
      Set<EndpointRoute> routes = EnumSet.noneOf(EndpointRoute.class);
      ReflectionSupport.findMethods(testClass, m -> AnnotationSupport.isAnnotated(m, Testable.class),
          HierarchyTraversalMode.TOP_DOWN).forEach(m -> routes.addAll(of(m, testClass)));
      return routes;
    }, Set.class);
  }

  /** The routes one test method of {@code testClass} sends to; none for a test of the endpoint alone. */
  static Set<EndpointRoute> of(Method method, Class<?> testClass) {
    if (sendsLoad(method)) {
      return EnumSet.of(Features.route(method, testClass).orElse(EndpointRoute.GENERATION));
    }
    return Arrays.asList(method.getParameterTypes()).contains(LlmClient.class) ? EnumSet.of(EndpointRoute.GENERATION)
        : EnumSet.noneOf(EndpointRoute.class);
  }

  /** A sweep or a feature's benchmark (a capacity search): its levels check their own route before their load. */
  static boolean sendsLoad(Method method) {
    return SweepPlanner.isSweep(method) || Features.runLevels(method);
  }
}
