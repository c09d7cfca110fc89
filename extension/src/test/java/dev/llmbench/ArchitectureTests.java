package dev.llmbench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.properties.HasAnnotations;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.conditions.ArchConditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;

/**
 * The boundaries of the library. Three kinds of package sit under {@code dev.llmbench}: the shared API (the root,
 * {@code assertions}, {@code result}, {@code client}, {@code server}), layered, each using only those below it; the
 * machinery under {@code internal}, which names no feature; and the features, every other package directly under
 * {@code dev.llmbench} (found, not listed: a new package is a feature from its first class), each holding its API
 * beside its implementation and reaching the machinery only through {@code internal.spi.Feature}, registered in
 * {@code META-INF/services}. The embedded engine ({@code engine}) is none of them: it is becoming a module of its
 * own. Besides: the API exposes no internal type, the internal packages form no cycle, every public type says its API
 * status, and a class's suffix says what it is, as {@code docs/glossary.md} defines it. (Samples using the API only is
 * checked in sample-tests.)
 */
@AnalyzeClasses(packages = "dev.llmbench", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

  static final String ROOT = "dev.llmbench";
  static final String INTERNAL = ROOT + ".internal";
  static final String FORMAT = INTERNAL + ".format";
  static final String SPI = INTERNAL + ".spi";
  /** The shared API's packages besides the root: what every feature and every user may use. */
  static final Set<String> SHARED = Set.of("assertions", "result", "client", "server");
  /** Not a feature: the machinery, and the embedded engine (a module of its own, moved by another step of #31). */
  static final Set<String> NOT_FEATURES = Set.of("internal", "engine");

  /** The package directly under {@code dev.llmbench} that {@code pkg} is in ({@code trace} for {@code dev.llmbench.trace.x}). */
  static Optional<String> top(String pkg) {
    if (!pkg.startsWith(ROOT + ".")) return Optional.empty();
    String rest = pkg.substring(ROOT.length() + 1);
    int dot = rest.indexOf('.');
    return Optional.of(dot < 0 ? rest : rest.substring(0, dot));
  }

  /** The feature whose package {@code c} is in: every package directly under the root but the shared and the others. */
  static Optional<String> feature(JavaClass c) {
    return top(c.getPackageName()).filter(t -> !SHARED.contains(t) && !NOT_FEATURES.contains(t));
  }

  static final DescribedPredicate<JavaClass> IN_A_FEATURE = DescribedPredicate.describe(
      "in a feature's package (a package under " + ROOT + " that is not " + SHARED + " nor " + NOT_FEATURES + ")",
      c -> feature(c).isPresent());

  static final DescribedPredicate<JavaClass> IN_THE_SHARED_API = DescribedPredicate.describe("in the shared API",
      c -> c.getPackageName().equals(ROOT) || top(c.getPackageName()).filter(SHARED::contains).isPresent());

  /**
   * The machinery (runner, planner, JUnit extensions, reports, shard merge) finds the features in the registry and
   * names none: a new feature touches no file of it.
   */
  @ArchTest
  static final ArchRule theMachineryNamesNoFeature = noClasses().that().resideInAPackage(INTERNAL + "..")
      .should().dependOnClassesThat(IN_A_FEATURE)
      .because("a feature reaches the machinery only through internal.spi.Feature, registered in META-INF/services");

  /**
   * A feature uses the shared API and the machinery, not another feature: each can change, or go, alone. The
   * exceptions ({@code ALLOWED}), each justified where it is listed.
   */
  /** {@code feature -> class of another feature} it may use, and why. */
  static final Set<String> ALLOWED = Set.of(); // none: what two features share is machinery (internal.workload.JsonReplyCheck)

  @ArchTest
  static final ArchRule featuresDoNotUseEachOther = classes().that(IN_A_FEATURE).should(useNoOtherFeature());

  /**
   * The shared API by journey, top to bottom: what a layer may use. Assertions use everything they assert on; the
   * root (annotations, injected types) uses the values of the packages below; a value package uses only those under
   * it. A feature may use any of them; none of them uses a feature but where listed.
   */
  @ArchTest
  static final ArchRule theSharedApiIsLayered = layeredArchitecture().consideringOnlyDependenciesInLayers()
      .layer("assertions").definedBy(ROOT + ".assertions")
      .layer("root").definedBy(ROOT)
      .layer("server").definedBy(ROOT + ".server")
      .layer("result").definedBy(ROOT + ".result")
      .layer("client").definedBy(ROOT + ".client")
      .layer("features").definedBy(IN_A_FEATURE)
      .layer("internals").definedBy(DescribedPredicate.describe("the internals but the formats",
          c -> c.getPackageName().startsWith(INTERNAL) && !c.getPackageName().equals(FORMAT)))
      .layer("formats").definedBy(FORMAT)
      .whereLayer("assertions").mayOnlyAccessLayers("root", "server", "result", "client", "features", "formats")
      .whereLayer("root").mayOnlyAccessLayers("server", "result", "client", "features", "internals", "formats")
      .whereLayer("server").mayOnlyAccessLayers("result", "client", "internals", "formats")
      .whereLayer("result").mayOnlyAccessLayers("client", "formats")
      .whereLayer("client").mayOnlyAccessLayers("formats")
      .whereLayer("formats").mayNotAccessAnyLayer()
      // Delta (compare.Delta before #31) is a metric's change: it names the Metric, the root's one list of them.
      .ignoreDependency(JavaClass.Predicates.equivalentTo(dev.llmbench.result.Delta.class),
          JavaClass.Predicates.equivalentTo(Metric.class));

  @ArchTest
  static final ArchRule internalPackagesFormNoCycle = slices().matching(INTERNAL + ".(**)").should().beFreeOfCycles();

  static final DescribedPredicate<JavaClass> IN_THE_API = DescribedPredicate.describe("in the API",
      c -> c.getPackageName().startsWith(ROOT) && !c.getPackageName().startsWith(INTERNAL)
          && !top(c.getPackageName()).filter(NOT_FEATURES::contains).isPresent());

  /** Public for the library's own packages, not for users: a feature's implementation the machinery reaches. */
  static final DescribedPredicate<JavaClass> MARKED_INTERNAL = DescribedPredicate.describe("marked @API(status = INTERNAL)",
      ArchitectureTests::isMarkedInternal);

  static boolean isMarkedInternal(JavaClass c) {
    if (c.tryGetAnnotationOfType(API.class).map(a -> a.status() == API.Status.INTERNAL).orElse(false)) return true;
    return c.getEnclosingClass().map(ArchitectureTests::isMarkedInternal).orElse(false);
  }

  /** Public, and so is every class it is nested in: a user can name it. */
  static final DescribedPredicate<JavaClass> REACHABLE = DescribedPredicate.describe("reachable by users",
      ArchitectureTests::isReachable);

  static boolean isReachable(JavaClass c) {
    return c.getModifiers().contains(JavaModifier.PUBLIC) && c.getEnclosingClass().map(ArchitectureTests::isReachable).orElse(true);
  }

  @ArchTest
  static final ArchRule theApiExposesNoInternalType = classes().that(IN_THE_API).and(REACHABLE)
      .and(DescribedPredicate.not(MARKED_INTERNAL)).should(exposeNoInternalType());

  @ArchTest
  static final ArchRule everyApiTypeSaysItsStatus = classes().that(IN_THE_API)
      .and().arePublic().and().areTopLevelClasses().should().beAnnotatedWith(API.class);

  @ArchTest
  static final ArchRule internalTypesAreMarkedInternal = classes().that().resideInAPackage(INTERNAL + "..")
      .and().arePublic().and().areTopLevelClasses().should(beMarked(API.Status.INTERNAL));

  /** A feature is registered by one class of its own package, named so, and found by the machinery nowhere else. */
  @ArchTest
  static final ArchRule registrationsAreFeatures = classes().that().haveSimpleNameEndingWith("Registration")
      .should().implement(SPI + ".Feature").andShould(ArchConditions.be(IN_A_FEATURE))
      .because("a feature's one registration lists it in META-INF/services/dev.llmbench.internal.spi.Feature");

  @ArchTest
  static final ArchRule everyFeatureIsARegistration = classes().that().implement(SPI + ".Feature")
      .should().haveSimpleNameEndingWith("Registration");

  // Suffixes (docs/glossary.md): each says what a class is, checked against what it implements or is.

  @ArchTest
  static final ArchRule detectorsReadOneFindingKind = classes().that().haveSimpleNameEndingWith("Detector")
      .should().beAssignableTo(INTERNAL + ".analysis.Detector")
      .because("a *Detector reads one finding kind off a curve, behind the analysis's Detector interface");

  @ArchTest
  static final ArchRule everyDetectorIsNamedSo = classes().that().areAssignableTo(INTERNAL + ".analysis.Detector")
      .should().haveSimpleNameEndingWith("Detector");

  @ArchTest
  static final ArchRule reportersAreListeners = classes().that().haveSimpleNameEndingWith("Reporter")
      .should().beAssignableTo(INTERNAL + ".core.BenchListener")
      .because("a report is written by a listener of the run's events, never called by the run");

  @ArchTest
  static final ArchRule probesAreReadinessProbes = classes().that().resideInAPackage(INTERNAL + ".core")
      .and().haveSimpleNameEndingWith("Probe").should().beAssignableTo(INTERNAL + ".core.ReadinessProbe")
      .because("in internal.core a probe is a readiness probe (a capacity search's probe is a level it tries)");

  @ArchTest
  static final ArchRule everyReadinessProbeIsNamedSo = classes().that().areAssignableTo(INTERNAL + ".core.ReadinessProbe")
      .should().haveSimpleNameEndingWith("Probe");

  @ArchTest
  static final ArchRule extensionsAreJUnitExtensions = classes().that().haveSimpleNameEndingWith("Extension")
      .and().areTopLevelClasses().should().beAssignableTo(Extension.class);

  @ArchTest
  static final ArchRule specsAndOptionsAreRecords = classes().that().haveSimpleNameEndingWith("Spec")
      .or().haveSimpleNameEndingWith("Options").should().beAssignableTo(Record.class)
      .because("a *Spec or *Options is a resolved, checked value: immutable, equal by its content");

  @ArchTest
  static final ArchRule resolvedSettingsAreNoConfig = noClasses().should().haveSimpleNameEndingWith("Config")
      .orShould().haveSimpleNameEndingWith("Configuration")
      .because("resolved settings are a *Spec (what the run starts or sends to) or *Options (how a component runs)");

  @ArchTest
  static final ArchRule exceptionsAreThrowable = classes().that().haveSimpleNameEndingWith("Exception")
      .should().beAssignableTo(Exception.class);

  @ArchTest
  static final ArchRule throwablesAreExceptions = classes().that().areAssignableTo(Exception.class)
      .should().haveSimpleNameEndingWith("Exception")
      .because("an exception says it is one by its name (docs/glossary.md)");

  static ArchCondition<JavaClass> exposeNoInternalType() {
    return new ArchCondition<>("expose no type of " + INTERNAL + " in a public signature") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        List<String> exposed = new ArrayList<>();
        List<JavaType> supertypes = new ArrayList<>(c.getInterfaces());
        c.getSuperclass().ifPresent(supertypes::add);
        supertypes.forEach(t -> internal(t, "supertype", exposed));
        for (JavaCodeUnit unit : c.getCodeUnits()) {
          if (!isVisible(unit.getModifiers()) || isMarked(unit, API.Status.INTERNAL)) continue;
          internal(unit.getReturnType(), unit.getFullName() + " returns", exposed);
          unit.getParameterTypes().forEach(p -> internal(p, unit.getFullName() + " takes", exposed));
        }
        for (JavaField f : c.getFields()) {
          if (isVisible(f.getModifiers()) && !isMarked(f, API.Status.INTERNAL)) internal(f.getType(), f.getFullName() + " is", exposed);
        }
        exposed.forEach(e -> events.add(SimpleConditionEvent.violated(c, c.getName() + ": " + e)));
      }
    };
  }

  static boolean isMarked(HasAnnotations<?> member, API.Status status) {
    return member.tryGetAnnotationOfType(API.class).map(a -> a.status() == status).orElse(false);
  }

  /**
   * Uses no class of another feature's package but those {@code ALLOWED} lets it: each feature can change, or go,
   * alone.
   */
  static ArchCondition<JavaClass> useNoOtherFeature() {
    return new ArchCondition<>("use no other feature") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        String own = feature(c).orElseThrow();
        c.getDirectDependenciesFromSelf().stream().map(d -> d.getTargetClass().getBaseComponentType()).distinct()
            .filter(t -> feature(t).filter(f -> !f.equals(own)).isPresent())
            .filter(t -> !ALLOWED.contains(own + " -> " + t.getName()))
            .forEach(t -> events.add(SimpleConditionEvent.violated(c, c.getName() + " (" + own + ") uses " + t.getName())));
      }
    };
  }

  static boolean isVisible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  static void internal(JavaType type, String where, List<String> exposed) {
    type.getAllInvolvedRawTypes().stream().filter(t -> t.getPackageName().startsWith(INTERNAL))
        .forEach(t -> exposed.add(where + " " + t.getName()));
  }

  static ArchCondition<JavaClass> beMarked(API.Status status) {
    return new ArchCondition<>("be annotated @API(status = " + status + ")") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        boolean marked = c.tryGetAnnotationOfType(API.class).map(a -> a.status() == status).orElse(false);
        if (!marked) events.add(SimpleConditionEvent.violated(c, c.getName() + " is not @API(status = " + status + ")"));
      }
    };
  }
}
