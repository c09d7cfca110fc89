package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import java.lang.reflect.Method;
import java.util.List;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * One probe of a search (a capacity search's, an agents' tier search's): measured and reported as a level of its sweep
 * before the test, recorded in the search, offered to the method with the search's answer so far; the method itself
 * does not run for a probe.
 */
@API(status = INTERNAL)
public interface ProbeInvocation extends BeforeTestExecutionCallback, InjectingResolver, InvocationInterceptor {

  /** Where the probe's measured level waits for the method's parameters. */
  ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ProbeInvocation.class);

  /** The sweep the probe is a level of. */
  SweepRun sweep();

  /** Measures the probe and records it in the search. */
  MeasuredLevel measure(ExtensionContext context);

  /** The type of the search's answer a method may take: {@code Capacity}, {@code AgentCapacities}. */
  Class<?> answerType();

  /** The search's answer as it stands. */
  Object answer();

  @Override
  default void beforeTestExecution(ExtensionContext context) {
    MeasuredLevel result = measure(context);
    context.getStore(NAMESPACE).put(SweepLevelResult.class, result);
    sweep().measured(result);
  }

  @Override
  default List<Class<?>> injects() {
    return List.of(answerType(), SweepLevelResult.class);
  }

  /** The method does not run for a probe; JUnit resolves its parameters all the same. */
  @Override
  default Object resolve(Class<?> type, ExtensionContext context) {
    return type == answerType() ? answer() : context.getStore(NAMESPACE).get(SweepLevelResult.class);
  }

  @Override
  default void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext extensionContext) {
    invocation.skip();
  }
}
