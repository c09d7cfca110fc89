package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** Configuration errors as JUnit reports them: naming the method or class, what is wrong and the fix. */
@API(status = INTERNAL)
public final class ConfigurationErrors {

  private ConfigurationErrors() {}

  /** The method, as configuration errors name it: {@code EmbeddedDeploymentBenchmarkTest#throughput}. */
  public static String where(Method method) {
    return method.getDeclaringClass().getSimpleName() + "#" + method.getName();
  }

  public static ExtensionConfigurationException sweep(String where, String message) {
    return new ExtensionConfigurationException("Configuration error: sweep on method [" + where + "]: " + message);
  }

  public static ExtensionConfigurationException sweep(String where, IllegalArgumentException cause) {
    return new ExtensionConfigurationException("Configuration error: sweep on method [" + where + "]: " + cause.getMessage(),
        cause);
  }

  /** An error of an {@code @AfterSweep} method, which is no sweep: named as what it is. */
  public static ExtensionConfigurationException afterSweep(String where, String message) {
    return new ExtensionConfigurationException("Configuration error: @AfterSweep on method [" + where + "]: " + message);
  }

  public static ExtensionConfigurationException endpoint(String where, IllegalArgumentException cause) {
    return new ExtensionConfigurationException("Configuration error: @LlmEndpoint on [" + where + "]: " + cause.getMessage(),
        cause);
  }
}
