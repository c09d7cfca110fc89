package dev.llmbench.samples;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Benchmarks use {@code dev.llmbench} only: its internals may change in any release. Worth copying into a
 * suite of your own.
 */
@AnalyzeClasses(packages = "dev.llmbench.samples", importOptions = ImportOption.OnlyIncludeTests.class)
class SamplesUseTheApiOnlyTest {

  @ArchTest
  static final ArchRule noInternals = noClasses().that().resideInAPackage("dev.llmbench.samples..")
      .should().dependOnClassesThat().resideInAPackage("dev.llmbench.internal..")
      .because("dev.llmbench.internal is not API and changes without notice");
}
