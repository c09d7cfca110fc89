package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/** Helpers for {@link BenchListener}s: broadcasting to several, and steps. */
@API(status = INTERNAL)
public final class Listeners {

  private static final BenchListener NONE = new BenchListener() {};

  private Listeners() {}

  public static BenchListener none() {
    return NONE;
  }

  /**
   * One listener that passes every event to all of {@code listeners}, in order. A listener that throws does
   * not keep the others from hearing the event: every listener runs, then the first failure is rethrown
   * with the others suppressed, so a report that cannot be written fails loudly but loses nothing the other
   * reports could keep.
   */
  public static BenchListener broadcast(List<BenchListener> listeners) {
    List<BenchListener> all = List.copyOf(listeners);
    return (BenchListener) Proxy.newProxyInstance(BenchListener.class.getClassLoader(), new Class<?>[] {BenchListener.class},
        (proxy, method, args) -> method.getDeclaringClass() == Object.class ? objectMethod(proxy, method, args, all)
            : each(all, method, args));
  }

  private static Object each(List<BenchListener> listeners, Method method, Object[] args) {
    RuntimeException first = null;
    for (BenchListener l : listeners) {
      try {
        method.invoke(l, args);
      } catch (InvocationTargetException e) {
        RuntimeException failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        if (first == null) first = failure;
        else first.addSuppressed(failure);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
    if (first != null) throw first;
    return null;
  }

  private static Object objectMethod(Object proxy, Method method, Object[] args, List<BenchListener> all) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "listeners" + all;
    };
  }

  /** Runs {@code body} as a step: listeners see it start and finish, failure included. */
  public static <T> T step(BenchListener listener, String name, Supplier<T> body) {
    listener.stepStarted(name);
    T result;
    try {
      result = body.get();
    } catch (RuntimeException | Error e) {
      listener.stepFinished(name, e);
      throw e;
    }
    listener.stepFinished(name, null);
    return result;
  }
}
