package dev.llmbench.internal.report;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Allure calls that are safe when no Allure test is running (no allure-jupiter on the classpath, or a
 * call from outside a test): they then do nothing, or just run the step's body.
 */
public final class AllureSupport {

  private AllureSupport() {}

  public static boolean active() {
    try {
      AllureLifecycle lifecycle = Allure.getLifecycle();
      return lifecycle.getCurrentTestCase().isPresent();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  public static <T> T step(String name, Supplier<T> body) {
    if (!active()) return body.get();
    return Allure.step(name, body::get);
  }

  public static void step(String name, Runnable body) {
    step(name, () -> {
      body.run();
      return null;
    });
  }

  public static void parameter(String name, String value) {
    if (active()) Allure.parameter(name, value);
  }

  /** A parameter shown in the report but left out of Allure's history id, for values that change every run. */
  public static void volatileParameter(String name, String value) {
    if (active()) Allure.parameter(name, value, true);
  }

  public static void label(String name, String value) {
    if (active()) Allure.label(name, value);
  }

  public static void attach(String name, String mimeType, String extension, String content) {
    if (active()) {
      Allure.addAttachment(name, mimeType, new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), extension);
    }
  }

  public static void description(String html) {
    if (active()) Allure.descriptionHtml(html);
  }
}
