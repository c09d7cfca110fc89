package dev.llmbench.internal.junit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One way into the JUnit store on JUnit 5.14 and 6: {@link StoreValues}. {@code Store.getOrComputeIfAbsent} is deprecated
 * in JUnit 6 and {@code computeIfAbsent} missing in 5.14, so no other class, main or test, calls either.
 */
class StoreValuesTests {

  private static final ArchRule ONE_WAY_IN = noClasses().that().doNotHaveFullyQualifiedName(StoreValues.class.getName())
      .and().doNotHaveFullyQualifiedName(Violator.class.getName())
      .should().callMethodWhere(DescribedPredicate.describe("ExtensionContext.Store.getOrComputeIfAbsent or computeIfAbsent",
          (JavaMethodCall call) -> call.getTargetOwner().isEquivalentTo(ExtensionContext.Store.class)
              && (call.getName().equals("getOrComputeIfAbsent") || call.getName().equals("computeIfAbsent"))))
      .because("JUnit 6 deprecates getOrComputeIfAbsent and 5.14 has no computeIfAbsent: use StoreValues.computeIfAbsent");

  @Test
  void noClassButStoreValuesCallsTheStoresComputeMethods() {
    ONE_WAY_IN.check(new ClassFileImporter().importPackages("dev.llmbench"));
  }

  /** The rule sees a call: the one class it lets through for this test is caught once it is not let through. */
  @Test
  void theRuleCatchesACall() {
    ArchRule strict = noClasses().should().callMethodWhere(DescribedPredicate.describe("getOrComputeIfAbsent",
        (JavaMethodCall call) -> call.getTargetOwner().isEquivalentTo(ExtensionContext.Store.class)
            && call.getName().equals("getOrComputeIfAbsent")));
    assertThat(strict.evaluate(new ClassFileImporter().importClasses(Violator.class)).hasViolation()).isTrue();
  }

  /** Calls the deprecated method, for the rule to catch. */
  static final class Violator {
    @SuppressWarnings({"deprecation", "unused"})
    static Object call(ExtensionContext.Store store) {
      return store.getOrComputeIfAbsent("k", k -> "v", String.class);
    }
  }

  /** A value is computed once per store, then found. */
  @Test
  @ExtendWith(Capture.class)
  void computesOnceThenFinds(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(ExtensionContext.Namespace.create(StoreValuesTests.class));
    AtomicInteger computed = new AtomicInteger();
    String first = StoreValues.computeIfAbsent(store, "key", k -> k + computed.incrementAndGet(), String.class);
    String second = StoreValues.computeIfAbsent(store, "key", k -> k + computed.incrementAndGet(), String.class);
    assertThat(first).isEqualTo("key1");
    assertThat(second).isEqualTo("key1");
    assertThat(computed).hasValue(1);
  }

  /** Hands the test its own ExtensionContext. */
  static final class Capture implements org.junit.jupiter.api.extension.ParameterResolver {
    @Override
    public boolean supportsParameter(org.junit.jupiter.api.extension.ParameterContext p, ExtensionContext c) {
      return p.getParameter().getType() == ExtensionContext.class;
    }

    @Override
    public Object resolveParameter(org.junit.jupiter.api.extension.ParameterContext p, ExtensionContext c) {
      return c;
    }
  }
}
