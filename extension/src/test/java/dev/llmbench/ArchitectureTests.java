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
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;

/**
 * The boundaries of the library: the API's packages are layers, each using only those below it; the API
 * exposes no internal type and uses no internal package but the extensions its annotations name, the
 * analysis {@code SweepAnalysis} fronts and the number formats; the internal packages form no cycle; every
 * public type says its API status; a class's suffix says what it is, as
 * {@code docs/glossary.md} defines it. (Samples using the API only is checked in sample-tests.)
 */
@AnalyzeClasses(packages = "dev.llmbench", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

  static final String API_PACKAGE = "dev.llmbench";
  static final String INTERNAL = "dev.llmbench.internal";
  static final String FORMAT = INTERNAL + ".format";

  /**
   * What the API fronts: the extension an annotation names in {@code @ExtendWith}, as any JUnit extension
   * annotation must, and the offline analysis behind {@code SweepAnalysis}.
   */
  static final DescribedPredicate<JavaClass> FRONTED = DescribedPredicate.describe(
      "the extensions behind the annotations and the analysis behind SweepAnalysis",
      c -> c.getPackageName().equals(INTERNAL + ".junit") && c.getSimpleName().endsWith("Extension")
          || c.getName().equals(INTERNAL + ".offline.OfflineAnalysis"));
  static final DescribedPredicate<JavaClass> OTHER_INTERNALS = DescribedPredicate.describe("the other internals",
      c -> c.getPackageName().startsWith(INTERNAL) && !c.getPackageName().equals(FORMAT) && !FRONTED.test(c));

  /**
   * The API by journey, top to bottom: what a layer may use. Assertions use everything they assert on; the
   * comparisons use the sweep's results; the root (annotations, injected types) uses the values of the
   * packages below; a value package uses only those under it. Every class is in a layer, so a new package
   * needs its place here.
   */
  @ArchTest
  static final ArchRule theApiIsLayered = layeredArchitecture().consideringOnlyDependenciesInLayers()
      .ensureAllClassesAreContainedInArchitecture()
      .layer("assertions").definedBy(API_PACKAGE + ".assertions")
      .layer("compare").definedBy(API_PACKAGE + ".compare")
      .layer("root").definedBy(API_PACKAGE)
      .layer("workload").definedBy(API_PACKAGE + ".workload")
      .layer("server").definedBy(API_PACKAGE + ".server")
      .layer("result").definedBy(API_PACKAGE + ".result")
      .layer("client").definedBy(API_PACKAGE + ".client")
      .layer("fronted").definedBy(FRONTED)
      .layer("internals").definedBy(OTHER_INTERNALS)
      .layer("formats").definedBy(FORMAT)
      .whereLayer("assertions").mayNotBeAccessedByAnyLayer()
      .whereLayer("assertions").mayOnlyAccessLayers("compare", "root", "workload", "server", "result", "client", "formats")
      .whereLayer("compare").mayOnlyAccessLayers("root", "workload", "server", "result", "client", "fronted", "formats")
      .whereLayer("root").mayOnlyAccessLayers("workload", "server", "result", "client", "fronted", "formats")
      .whereLayer("workload").mayOnlyAccessLayers("result", "client", "formats")
      .whereLayer("server").mayOnlyAccessLayers("result", "client", "fronted", "formats")
      .whereLayer("result").mayOnlyAccessLayers("client", "formats")
      .whereLayer("client").mayOnlyAccessLayers("formats")
      .whereLayer("formats").mayNotAccessAnyLayer();

  @ArchTest
  static final ArchRule internalPackagesFormNoCycle = slices().matching(INTERNAL + ".(**)").should().beFreeOfCycles();

  static final DescribedPredicate<JavaClass> IN_THE_API = DescribedPredicate.describe("in the API",
      c -> c.getPackageName().startsWith(API_PACKAGE) && !c.getPackageName().startsWith(INTERNAL));

  /** The sweep features: each plugs into the reports through {@code core.SweepFeature}, and no report names one. */
  static final String[] FEATURES = {INTERNAL + ".baseline..", INTERNAL + ".capacity..", INTERNAL + ".deployments..",
      INTERNAL + ".quality..", INTERNAL + ".agents..", INTERNAL + ".session..", INTERNAL + ".sessions.."};

  @ArchTest
  static final ArchRule reportsNameNoFeature = noClasses().that().resideInAPackage(INTERNAL + ".report..")
      .should().dependOnClassesThat().resideInAnyPackage(FEATURES)
      .because("a feature reaches the reports only through the FeatureSections it returns");

  @ArchTest
  static final ArchRule theApiExposesNoInternalType = classes().that(IN_THE_API).and().arePublic()
      .should(exposeNoInternalType());

  @ArchTest
  static final ArchRule everyApiTypeSaysItsStatus = classes().that(IN_THE_API)
      .and().arePublic().and().areTopLevelClasses().should().beAnnotatedWith(API.class);

  @ArchTest
  static final ArchRule internalTypesAreMarkedInternal = classes().that().resideInAPackage(INTERNAL + "..")
      .and().arePublic().and().areTopLevelClasses().should(beMarked(API.Status.INTERNAL));

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
  static final ArchRule extensionsAreJUnitExtensions = classes().that().resideInAPackage(INTERNAL + ".junit")
      .and().haveSimpleNameEndingWith("Extension").should().beAssignableTo(Extension.class);

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
          if (!isVisible(unit.getModifiers())) continue;
          internal(unit.getReturnType(), unit.getFullName() + " returns", exposed);
          unit.getParameterTypes().forEach(p -> internal(p, unit.getFullName() + " takes", exposed));
        }
        for (JavaField f : c.getFields()) {
          if (isVisible(f.getModifiers())) internal(f.getType(), f.getFullName() + " is", exposed);
        }
        exposed.forEach(e -> events.add(SimpleConditionEvent.violated(c, c.getName() + ": " + e)));
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
