package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The public API as a checked-in text file, {@code extension/api/llmbench-junit.api}, as OkHttp keeps its
 * {@code .api} files: every public and protected type and member of {@code dev.llmbench} and of its
 * packages outside {@code dev.llmbench.internal}, one line each, so that an API change shows in review as a
 * change of that file. The test fails with the diff and the command that rewrites the file. A feature's package
 * holds its implementation beside its API, some of it public for the machinery to reach: a type or member marked
 * {@code @API(status = INTERNAL)} is no user's API, and the dump leaves it out.
 *
 * <p>japicmp and revapi compare two built jars, so they need a released baseline this project does not
 * have yet and keep no text file to review; the dump is read off the compiled classes by reflection instead
 * (ArchUnit, already here for the architecture rules, finds them). Parameter names are left out, as they
 * are in a binary signature; {@code @API} status, annotation defaults and constant values are kept, since
 * changing them changes what users get.
 */
class ApiSignatureTests {

  static final Path DUMP = Path.of("api", "llmbench-junit.api");
  static final String UPDATE_PROPERTY = "llmbench.api.update";
  static final String UPDATE_COMMAND = "mvn -B -o -pl extension -am test -Dtest=ApiSignatureTests -D" + UPDATE_PROPERTY + "=true";

  /** The dump of the compiled classes, read once for both tests. */
  static String compiled;

  @BeforeAll
  static void readTheCompiledApi() {
    compiled = dump();
  }

  @Test
  void theCompiledApiIsTheCheckedInDump() throws IOException {
    String actual = compiled;
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      Files.createDirectories(DUMP.getParent());
      Files.writeString(DUMP, actual, StandardCharsets.UTF_8);
      return;
    }
    if (!Files.exists(DUMP)) {
      fail("extension/" + DUMP + " is missing: write it with\n  " + UPDATE_COMMAND);
    }
    String expected = Files.readString(DUMP, StandardCharsets.UTF_8);
    if (!expected.equals(actual)) {
      List<String> before = expected.lines().collect(Collectors.toList());
      List<String> after = actual.lines().collect(Collectors.toList());
      List<String> diff = UnifiedDiffUtils.generateUnifiedDiff("extension/" + DUMP, "compiled API", before,
          DiffUtils.diff(before, after), 2);
      fail("The public API differs from extension/" + DUMP + " (- the file, + the compiled classes):\n"
          + String.join("\n", diff) + "\n\nIf the change is meant, rewrite the file and commit it with the change:\n  "
          + UPDATE_COMMAND);
    }
  }

  /** The dump sees what it should: members, generics, defaults, constants, and no internal type. */
  @Test
  void theDumpListsPublicMembersWithTheirGenericTypesAndNoInternalType() {
    assertThat(compiled)
        .contains("@API(since = \"0.1\", status = EXPERIMENTAL)\npublic interface dev.llmbench.SweepResult")
        .contains("public enum dev.llmbench.Metric")
        .containsPattern("(?m)^  public abstract int\\[\\] value\\(\\)$")   // @ConcurrencySweep's levels
        .containsPattern("(?m)^  public .*java\\.util\\.List<dev\\.llmbench\\.[A-Za-z.]+> [a-zA-Z]+\\(\\)$")
        .doesNotContain("dev.llmbench.internal.")
        .doesNotContain("status = INTERNAL")
        .doesNotContain("Tests")
        .doesNotContainPattern("(?m)^  private ");
  }

  static String dump() {
    // The module's own classes only: its test classes, the jars on the class path and the modules beside it in the
    // reactor (the engine's classes folder, in a build of both) are not its API.
    String own = Path.of("target", "classes").toAbsolutePath() + "/";
    List<Class<?>> types = new ClassFileImporter().withImportOption(location -> location.contains(own))
        .importPackages("dev.llmbench").stream()
        .filter(c -> isApiPackage(c.getPackageName()))
        .map(JavaClass::reflect)
        .filter(ApiSignatureTests::isVisibleType)
        .sorted(Comparator.comparing(Class::getName))
        .collect(Collectors.toList());
    StringBuilder out = new StringBuilder();
    for (Class<?> type : types) out.append(type(type)).append('\n');
    return out.toString();
  }

  static boolean isApiPackage(String name) {
    return name.equals("dev.llmbench")
        || name.startsWith("dev.llmbench.") && !name.equals("dev.llmbench.internal") && !name.startsWith("dev.llmbench.internal.");
  }

  static boolean isVisibleType(Class<?> c) {
    if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic() || c.getSimpleName().equals("package-info")) return false;
    if (!isVisible(c.getModifiers()) || isInternal(c)) return false;
    return c.getDeclaringClass() == null || isVisibleType(c.getDeclaringClass());
  }

  /** Marked {@code @API(status = INTERNAL)}: public for the library's own packages, not for its users. */
  static boolean isInternal(AnnotatedElement e) {
    API api = e.getAnnotation(API.class);
    return api != null && api.status() == API.Status.INTERNAL;
  }

  static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  static String type(Class<?> c) {
    StringBuilder out = new StringBuilder();
    String annotations = annotations(c);
    if (!annotations.isEmpty()) out.append(annotations.trim()).append('\n');
    int modifiers = c.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT);
    if (c.isInterface()) modifiers &= ~(Modifier.ABSTRACT | Modifier.STATIC);
    if (c.isEnum() || c.isRecord()) modifiers &= ~(Modifier.FINAL | Modifier.STATIC);
    out.append(Modifier.toString(modifiers));
    if (c.isSealed()) out.append(" sealed");
    out.append(' ').append(kind(c)).append(' ').append(c.getCanonicalName()).append(typeParameters(c.getTypeParameters()));
    if (c.isRecord()) {
      out.append(Arrays.stream(c.getRecordComponents())
          .map(r -> name(r.getGenericType()) + " " + r.getName()).collect(Collectors.joining(", ", "(", ")")));
    }
    Type superclass = c.getGenericSuperclass();
    if (superclass != null && superclass != Object.class && !c.isEnum() && !c.isRecord()) {
      out.append(" extends ").append(name(superclass));
    }
    List<String> interfaces = Arrays.stream(c.getGenericInterfaces()).map(ApiSignatureTests::name)
        .filter(i -> !c.isAnnotation() || !i.equals("java.lang.annotation.Annotation")).collect(Collectors.toList());
    if (!interfaces.isEmpty()) out.append(c.isInterface() ? " extends " : " implements ").append(String.join(", ", interfaces));
    if (c.isSealed()) {
      out.append(" permits ").append(Arrays.stream(c.getPermittedSubclasses()).map(Class::getCanonicalName).sorted()
          .collect(Collectors.joining(", ")));
    }
    out.append('\n');
    members(c).forEach(m -> out.append("  ").append(m).append('\n'));
    return out.toString();
  }

  static String kind(Class<?> c) {
    if (c.isAnnotation()) return "@interface";
    if (c.isInterface()) return "interface";
    if (c.isEnum()) return "enum";
    if (c.isRecord()) return "record";
    return "class";
  }

  /** Enum constants in declared order (their ordinals are API), then the other members sorted. */
  static List<String> members(Class<?> c) {
    List<String> constants = new ArrayList<>();
    List<String> others = new ArrayList<>();
    if (c.isEnum()) {
      for (Object constant : c.getEnumConstants()) {
        String name = ((Enum<?>) constant).name();
        try {
          constants.add(annotations(c.getDeclaredField(name)) + name);
        } catch (NoSuchFieldException e) {
          throw new AssertionError("enum constant " + name + " of " + c + " has no field", e);
        }
      }
    }
    for (Field f : c.getDeclaredFields()) {
      if (!f.isSynthetic() && !f.isEnumConstant() && isVisible(f.getModifiers()) && !isInternal(f)) others.add(field(f));
    }
    for (Constructor<?> k : c.getDeclaredConstructors()) {
      if (!k.isSynthetic() && isVisible(k.getModifiers()) && !isInternal(k)) others.add(executable(k, "", c.getCanonicalName()));
    }
    for (Method m : c.getDeclaredMethods()) {
      if (m.isSynthetic() || m.isBridge() || !isVisible(m.getModifiers()) || isInternal(m)) continue;
      String text = executable(m, name(m.getGenericReturnType()) + " ", m.getName());
      if (m.getDefaultValue() != null) text += " default " + value(m.getDefaultValue());
      others.add(text);
    }
    others.sort(Comparator.naturalOrder());
    return Stream.concat(constants.stream(), others.stream()).collect(Collectors.toList());
  }

  static String field(Field f) {
    String text = annotations(f) + Modifier.toString(f.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL))
        + " " + name(f.getGenericType()) + " " + f.getName();
    boolean constant = Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers())
        && (f.getType().isPrimitive() || f.getType() == String.class);
    if (constant) {
      try {
        text += " = " + value(f.get(null));
      } catch (IllegalAccessException e) {
        throw new AssertionError("cannot read the constant " + f, e);
      }
    }
    return text;
  }

  static String executable(Executable e, String returns, String name) {
    int mask = Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT;
    String modifiers = Modifier.toString(e.getModifiers() & mask);
    if (e instanceof Method && ((Method) e).isDefault()) modifiers += " default";
    String typeParameters = typeParameters(e.getTypeParameters());
    Type[] parameters = e.getGenericParameterTypes();
    // An inner class's constructor may or may not list its outer instance: the raw types always do.
    if (parameters.length != e.getParameterCount()) parameters = e.getParameterTypes();
    List<String> shown = new ArrayList<>();
    for (int i = 0; i < parameters.length; i++) {
      String p = name(parameters[i]);
      if (e.isVarArgs() && i == parameters.length - 1) p = p.substring(0, p.length() - 2) + "...";
      shown.add(p);
    }
    String text = annotations(e) + modifiers + (typeParameters.isEmpty() ? "" : " " + typeParameters) + " " + returns + name
        + "(" + String.join(", ", shown) + ")";
    Type[] exceptions = e.getGenericExceptionTypes();
    if (exceptions.length > 0) {
      text += " throws " + Arrays.stream(exceptions).map(ApiSignatureTests::name).collect(Collectors.joining(", "));
    }
    return text;
  }

  static String typeParameters(TypeVariable<?>[] variables) {
    if (variables.length == 0) return "";
    return Arrays.stream(variables).map(v -> {
      List<String> bounds = Arrays.stream(v.getBounds()).filter(b -> b != Object.class).map(ApiSignatureTests::name)
          .collect(Collectors.toList());
      return bounds.isEmpty() ? v.getName() : v.getName() + " extends " + String.join(" & ", bounds);
    }).collect(Collectors.joining(", ", "<", ">"));
  }

  /** Type names as Java writes them ({@code java.util.List<dev.llmbench.result.Finding>}, nested types with a dot). */
  static String name(Type type) {
    if (type instanceof Class<?>) {
      Class<?> c = (Class<?>) type;
      return c.isArray() ? name(c.getComponentType()) + "[]" : c.getName().replace('$', '.');
    }
    return type.getTypeName().replace('$', '.');
  }

  /**
   * The annotations a user of the API sees and that change what they get: {@code @API}, and those of
   * {@code java.lang} and {@code java.lang.annotation} (retention, targets, repetition, deprecation). Others,
   * such as {@code @ExtendWith} naming an internal extension, are the implementation's.
   */
  static String annotations(AnnotatedElement element) {
    return Arrays.stream(element.getDeclaredAnnotations())
        .filter(a -> a.annotationType() == API.class || a.annotationType().getPackageName().equals("java.lang")
            || a.annotationType().getPackageName().equals("java.lang.annotation"))
        .sorted(Comparator.comparing(a -> a.annotationType().getName()))
        .map(a -> annotation(a) + (element instanceof Class<?> ? "\n" : " "))
        .collect(Collectors.joining());
  }

  /** Only the values that differ from the member's default, in the members' names' order. */
  static String annotation(Annotation a) {
    List<String> values = new ArrayList<>();
    Method[] members = a.annotationType().getDeclaredMethods();
    Arrays.sort(members, Comparator.comparing(Method::getName));
    for (Method m : members) {
      Object value;
      try {
        value = m.invoke(a);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("cannot read " + m + " of " + a, e);
      }
      if (m.getDefaultValue() != null && valueEquals(value, m.getDefaultValue())) continue;
      values.add((members.length == 1 && m.getName().equals("value") ? "" : m.getName() + " = ") + value(value));
    }
    return "@" + a.annotationType().getSimpleName() + (values.isEmpty() ? "" : "(" + String.join(", ", values) + ")");
  }

  static boolean valueEquals(Object a, Object b) {
    return a.getClass().isArray() ? Arrays.deepEquals(new Object[] {a}, new Object[] {b}) : a.equals(b);
  }

  static String value(Object v) {
    if (v instanceof String) {
      return "\"" + ((String) v).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t") + "\"";
    }
    if (v instanceof Character) return "'" + v + "'";
    if (v instanceof Long) return v + "L";
    if (v instanceof Float) return v + "f";
    if (v instanceof Enum<?>) return ((Enum<?>) v).name();
    if (v instanceof Class<?>) return name((Class<?>) v) + ".class";
    if (v instanceof Annotation) return annotation((Annotation) v);
    if (v.getClass().isArray()) {
      List<String> items = new ArrayList<>();
      for (int i = 0; i < Array.getLength(v); i++) items.add(value(Array.get(v, i)));
      return "{" + String.join(", ", items) + "}";
    }
    return String.valueOf(v);
  }
}
