package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** A parameter resolver for a fixed set of types: the extension says which, and how to get one. */
@API(status = INTERNAL)
public interface InjectingResolver extends ParameterResolver {

  List<Class<?>> injects();

  Object resolve(Class<?> type, ExtensionContext context);

  @Override
  default boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return injects().contains(parameter.getParameter().getType());
  }

  @Override
  default Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return resolve(parameter.getParameter().getType(), context);
  }
}
