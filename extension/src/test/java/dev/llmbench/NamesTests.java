package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One noun, one class (issue #31, docs/glossary.md): no two top-level classes of {@code dev.llmbench} share a simple
 * name, in the extension's main code or in the main code compiled into its packages by another module (the
 * benchmarks). Two types of one name are two concepts a reader must tell apart by package, or one concept built twice;
 * either way the name does not say which. Nor does a nested type take the name of a class of its own package. Read
 * from the sources, so that a second top-level type of a file counts too; test code is left out (a test is named after
 * what it tests).
 */
class NamesTests {

  /** The main source roots holding dev.llmbench, from the extension's folder (where the tests run). */
  static final List<Path> MAIN_SOURCES = List.of(Path.of("src/main/java"), Path.of("../benchmarks/src/main/java"));

  /** A top-level type: a declaration at the start of a line, not indented. */
  static final Pattern TOP_LEVEL = Pattern.compile(
      "^(?:(?:public|final|abstract|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|enum|record|@interface)\\s+(\\w+)",
      Pattern.MULTILINE);
  /** A nested type: an indented declaration. */
  static final Pattern NESTED = Pattern.compile("^[ \\t]+(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|"
      + "strictfp)\\s+)*(?:class|interface|enum|record|@interface)\\s+(\\w+)", Pattern.MULTILINE);

  @Test
  void everyTopLevelClassHasAnOwnSimpleName() {
    Map<String, TreeSet<String>> types = topLevelTypes(MAIN_SOURCES);
    assertThat(types).as("both roots read").containsKeys("SweepLevelResult", "CeilingRun");
    assertThat(clashes(types))
        .as("simple names of two or more top-level classes of dev.llmbench (rename one in scripts/dev/rooms.py's TYPES "
            + "and run it)")
        .isEmpty();
  }

  /**
   * Inside its enclosing type a nested type hides the package's class of its name, and beside it in the package the
   * two read alike ({@code QualityEval.Generated} and the class {@code Generated} did).
   */
  @Test
  void noNestedTypeTakesTheNameOfATopLevelClassOfItsPackage() {
    List<String> clashes = new ArrayList<>();
    Map<String, TreeSet<String>> topLevel = topLevelTypes(MAIN_SOURCES);
    forEachSource(MAIN_SOURCES, (pkg, source) -> {
      for (String nested : declared(NESTED, source)) {
        if (topLevel.getOrDefault(nested, new TreeSet<>()).contains(pkg + "." + nested)) {
          clashes.add(pkg + ": the class " + nested + " and a nested type " + nested + " in " + declared(TOP_LEVEL, source));
        }
      }
    });
    assertThat(clashes).as("nested types named as a class of their package (rename one)").isEmpty();
  }

  @Test
  void aClashListsEveryClassOfTheName() {
    Map<String, TreeSet<String>> types = Map.of(
        "Verdict", new TreeSet<>(List.of("dev.llmbench.x.Verdict", "dev.llmbench.y.Verdict")),
        "Grade", new TreeSet<>(List.of("dev.llmbench.x.Grade")));
    assertThat(clashes(types))
        .containsExactly("Verdict: dev.llmbench.x.Verdict, dev.llmbench.y.Verdict");
  }

  @Test
  void aSecondTopLevelTypeOfAFileCountsAsTopLevelAndAnIndentedOneAsNested() {
    String source = "package dev.llmbench.x;\n\npublic final class A {\n  record B() {}\n}\n\nrecord C(int n) {}\n";
    assertThat(declared(TOP_LEVEL, source)).containsExactly("A", "C");
    assertThat(declared(NESTED, source)).containsExactly("B");
  }

  /** Each clash as {@code Name: fqn, fqn}, by name. */
  static List<String> clashes(Map<String, TreeSet<String>> typesBySimpleName) {
    return new TreeMap<>(typesBySimpleName).entrySet().stream().filter(e -> e.getValue().size() > 1)
        .map(e -> e.getKey() + ": " + String.join(", ", e.getValue())).toList();
  }

  /** Simple name to the fully-qualified names of the top-level types of that name under the roots. */
  static Map<String, TreeSet<String>> topLevelTypes(List<Path> roots) {
    Map<String, TreeSet<String>> byName = new TreeMap<>();
    forEachSource(roots, (pkg, source) -> {
      for (String name : declared(TOP_LEVEL, source)) byName.computeIfAbsent(name, k -> new TreeSet<>()).add(pkg + "." + name);
    });
    return byName;
  }

  /** Gives each Java file of dev.llmbench under the roots, with its package (from its folder), in path order. */
  static void forEachSource(List<Path> roots, BiConsumer<String, String> packageAndSource) {
    for (Path root : roots) {
      Path base = root.resolve("dev/llmbench");
      if (!Files.isDirectory(base)) continue;
      try (Stream<Path> files = Files.walk(base)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          String pkg = root.relativize(file.getParent()).toString().replace(file.getFileSystem().getSeparator(), ".");
          packageAndSource.accept(pkg, Files.readString(file));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  static List<String> declared(Pattern declaration, String source) {
    Matcher m = declaration.matcher(source);
    return m.results().map(r -> r.group(1)).toList();
  }
}
