package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one way LLMBench computes a value into a JUnit {@link ExtensionContext.Store} on JUnit 5.14 and 6 alike: JUnit 6
 * deprecates {@code Store.getOrComputeIfAbsent} for {@code computeIfAbsent}, which 5.14 does not have. The method is
 * looked up once, by name: {@code computeIfAbsent} where it exists, else {@code getOrComputeIfAbsent} (not deprecated
 * in 5.14). No other class calls either ({@code StoreValuesTests} holds it).
 */
@API(status = INTERNAL)
public final class StoreValues {

  private static final MethodHandle COMPUTE = lookUp();

  private StoreValues() {}

  private static MethodHandle lookUp() {
    MethodType type = MethodType.methodType(Object.class, Object.class, Function.class, Class.class);
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    try {
      return lookup.findVirtual(ExtensionContext.Store.class, "computeIfAbsent", type);
    } catch (NoSuchMethodException jupiter5) {
      try {
        return lookup.findVirtual(ExtensionContext.Store.class, "getOrComputeIfAbsent", type);
      } catch (ReflectiveOperationException e) {
        throw new LinkageError("JUnit's ExtensionContext.Store has neither computeIfAbsent nor getOrComputeIfAbsent", e);
      }
    } catch (IllegalAccessException e) {
      throw new LinkageError("JUnit's ExtensionContext.Store.computeIfAbsent is not accessible", e);
    }
  }

  /**
   * The value stored under {@code key}, computed by {@code creator} and stored first when there is none.
   *
   * @param creator never returns null (JUnit 6 refuses a null)
   */
  public static <K, V> V computeIfAbsent(ExtensionContext.Store store, K key, Function<? super K, ? extends V> creator,
      Class<V> type) {
    try {
      return type.cast(COMPUTE.invoke(store, (Object) key, (Function<?, ?>) creator, type));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
