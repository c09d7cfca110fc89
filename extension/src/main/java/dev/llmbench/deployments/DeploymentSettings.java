package dev.llmbench.deployments;

import static dev.llmbench.deployments.DeploymentKeys.DEPLOYMENTS;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Settings;
import java.lang.reflect.AnnotatedElement;
import java.util.List;
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
    List<Deployment> declared = declared(context);
    return DeploymentSpec.checkedNames(declared.stream()
        .map(d -> DeploymentSpec.of(d.name(), d.baseUrl(), d.model(), d.api(), d.embeddedProfile(), d.gpuCount(),
            d.gpuHourPrice())).toList());
  }

  private static List<Deployment> declared(ExtensionContext context) {
    List<Deployment> onMethod = context.getTestMethod().map(DeploymentSettings::on).orElse(List.of());
    if (!onMethod.isEmpty()) return onMethod;
    Optional<Class<?>> c = context.getTestClass();
    while (c.isPresent()) {
      List<Deployment> found = on(c.get());
      if (!found.isEmpty()) return found;
      c = Optional.ofNullable(c.get().getEnclosingClass());
    }
    return List.of();
  }

  private static List<Deployment> on(AnnotatedElement element) {
    return AnnotationSupport.findRepeatableAnnotations(element, Deployment.class);
  }
}
