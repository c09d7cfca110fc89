package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Finds a setting annotation where a user may put it: on the test method, on its class, or on an enclosing
 * class of a {@code @Nested} class, nearest first.
 */
@API(status = INTERNAL)
public final class Annotations {

  private Annotations() {}

  public static <A extends Annotation> Optional<A> nearest(ExtensionContext context, Class<A> type) {
    return nearest(context.getTestMethod(), context.getTestClass(), type);
  }

  /** {@link #nearest(ExtensionContext, Class)} for a method of {@code testClass} other than the context's. */
  public static <A extends Annotation> Optional<A> nearest(Optional<Method> method, Optional<Class<?>> testClass, Class<A> type) {
    Optional<A> onMethod = method.flatMap(m -> AnnotationSupport.findAnnotation(m, type));
    if (onMethod.isPresent()) return onMethod;
    Optional<Class<?>> c = testClass;
    while (c.isPresent()) {
      Optional<A> found = AnnotationSupport.findAnnotation(c.get(), type);
      if (found.isPresent()) return found;
      c = Optional.ofNullable(c.get().getEnclosingClass());
    }
    return Optional.empty();
  }
}
