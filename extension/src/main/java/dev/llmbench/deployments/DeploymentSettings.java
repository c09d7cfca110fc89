package dev.llmbench.deployments;

import static dev.llmbench.deployments.DeploymentKeys.DEPLOYMENTS;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The deployments a sweep compares: {@code llmbench.deployments} when set, else the nearest
 * {@link Deployment}s (method, class, enclosing class); empty for a sweep of one endpoint.
 */
final class DeploymentSettings {

  private DeploymentSettings() {}

  /** @throws IllegalArgumentException naming the deployment and the fix */
  public static List<DeploymentSpec> of(ExtensionContext context) {
    Optional<List<DeploymentSpec>> configured = Settings.of(context).get(DEPLOYMENTS).optional();
    if (configured.isPresent()) return configured.get();
    List<DeploymentSpec> specs = new ArrayList<>();
    for (Deployment d : declared(context)) {
      Map<String, String> serve = new LinkedHashMap<>();
      for (String word : d.serve()) ServeMatrix.read(d.name(), word, serve);
      specs.add(DeploymentSpec.of(d.name(), d.baseUrl(), d.model(), d.api(), d.embeddedProfile(), d.gpuCount(),
          d.gpuHourPrice()).withServe(serve));
    }
    specs.addAll(ServeMatrix.candidates(nearest(context, ServeParam.class)));
    return DeploymentSpec.checkedNames(specs);
  }

  /** The nearest {@code type}s: the method's, else the class's, else an enclosing class's. */
  private static <A extends java.lang.annotation.Annotation> List<A> nearest(ExtensionContext context, Class<A> type) {
    List<A> onMethod = context.getTestMethod().map(m -> AnnotationSupport.findRepeatableAnnotations(m, type)).orElse(List.of());
    if (!onMethod.isEmpty()) return onMethod;
    Optional<Class<?>> c = context.getTestClass();
    while (c.isPresent()) {
      List<A> found = AnnotationSupport.findRepeatableAnnotations(c.get(), type);
      if (!found.isEmpty()) return found;
      c = Optional.ofNullable(c.get().getEnclosingClass());
    }
    return List.of();
  }

  private static List<Deployment> declared(ExtensionContext context) {
    return nearest(context, Deployment.class);
  }
}
