package dev.llmbench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;

/**
 * The boundaries of the library: {@code dev.llmbench} is the API and exposes no internal type; packages
 * form no cycle; every public type says its API status; a class's suffix says what it is, as
 * {@code docs/glossary.md} defines it. (Samples using the API only is checked in sample-tests.)
 */
@AnalyzeClasses(packages = "dev.llmbench", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

  static final String API_PACKAGE = "dev.llmbench";
  static final String INTERNAL = "dev.llmbench.internal";

  /** Each package is a slice of its own, the API package included. */
  static final SliceAssignment PACKAGES = new SliceAssignment() {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass c) {
      return c.getPackageName().startsWith(API_PACKAGE) ? SliceIdentifier.of(c.getPackageName()) : SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
      return "packages of dev.llmbench";
    }
  };

  /**
   * The one dependency of the API on an internal package: an annotation naming its extension in
   * {@code @ExtendWith}, as any JUnit extension annotation must.
   */
  static final DescribedPredicate<JavaClass> API_ANNOTATION = DescribedPredicate.describe("an API annotation",
      c -> c.getPackageName().equals(API_PACKAGE) && c.isAnnotation());
  static final DescribedPredicate<JavaClass> EXTENSION = DescribedPredicate.describe("an extension behind an annotation",
      c -> c.getPackageName().equals(INTERNAL + ".junit") && c.getSimpleName().endsWith("Extension"));

  /**
   * The other: the API's entry point to the analysis of files a sweep left behind, and the internal reader
   * it fronts (which produces API values), as an annotation fronts its extension.
   */
  static final DescribedPredicate<JavaClass> API_ANALYSIS = DescribedPredicate.describe("the API's SweepAnalysis",
      c -> c.getName().equals(API_PACKAGE + ".SweepAnalysis"));
  static final DescribedPredicate<JavaClass> OFFLINE = DescribedPredicate.describe("the offline analysis it fronts",
      c -> c.getPackageName().equals(INTERNAL + ".offline"));

  @ArchTest
  static final ArchRule packagesFormNoCycle = slices().assignedFrom(PACKAGES).should().beFreeOfCycles()
      .ignoreDependency(API_ANNOTATION, EXTENSION).ignoreDependency(API_ANALYSIS, OFFLINE);

  @ArchTest
  static final ArchRule theApiExposesNoInternalType = classes().that().resideInAPackage(API_PACKAGE).and().arePublic()
      .should(exposeNoInternalType());

  @ArchTest
  static final ArchRule everyApiTypeSaysItsStatus = classes().that().resideInAPackage(API_PACKAGE)
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
