package io.mcpvertx.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules of docs/architecture.md, checked against the classes of every library module (runtime, verticles,
 * storage-redis, cluster, annotations). It lives in the examples module because that is the one module that sees
 * all of them.
 */
class ArchitectureTest {

  /** The runtime: JSON-RPC, the protocol, both engines and the store SPI, independent of any transport. */
  private static final String[] RUNTIME = {"io.mcpvertx.jsonrpc..", "io.mcpvertx.protocol..", "io.mcpvertx.server..",
      "io.mcpvertx.spi.."};

  /**
   * The classes allowed to reach into Vert.x internals, each for a reason its javadoc gives. Keep it to one, or
   * none.
   */
  private static final Set<String> VERTX_INTERNAL_USERS = Set.of(
      "io.mcpvertx.verticles.impl.cluster.ClusterMembership");

  private static JavaClasses classes;

  @BeforeAll
  static void importLibraryClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
        .importPackages("io.mcpvertx")
        .that(DescribedPredicate.describe("library classes",
            c -> !c.getPackageName().startsWith("io.mcpvertx.examples")
                && !c.getPackageName().startsWith("io.mcpvertx.benchmarks")));
  }

  @Test
  void packagesFormNoCyclesExceptBetweenAnApiAndItsImpl() {
    // Package P and P.impl may depend on each other (P's static factories construct P.impl, which implements P);
    // any other cycle, through any number of packages, fails.
    Map<String, Set<String>> edges = new TreeMap<>();
    for (JavaClass type : classes) {
      String from = type.getPackageName();
      for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
        String to = dependency.getTargetClass().getBaseComponentType().getPackageName();
        if (!to.equals(from) && to.startsWith("io.mcpvertx.") && !to.equals(from + ".impl")
            && !from.equals(to + ".impl")) {
          edges.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
        }
      }
    }
    List<List<String>> cycles = PackageCycles.find(edges);
    assertTrue(cycles.isEmpty(), () -> "Package cycles: " + cycles);
  }

  @Test
  void theRuntimeKnowsNoTransport() {
    noClasses().that().resideInAnyPackage(RUNTIME)
        .should().dependOnClassesThat().resideInAnyPackage("io.vertx.core.http..", "io.vertx.ext.web..",
            "io.vertx.core.net..", "io.mcpvertx.verticles..", "io.mcpvertx.storage..", "io.mcpvertx.cluster..")
        .because("the runtime speaks JSON-RPC only; transports and stores depend on it, never the other way round")
        .check(classes);
  }

  @Test
  void nothingDependsOnTheAnnotationsModule() {
    noClasses().that().resideOutsideOfPackage("io.mcpvertx.annotations..")
        .should().dependOnClassesThat().resideInAnyPackage("io.mcpvertx.annotations..")
        .because("annotated handlers are an optional layer over the runtime's builder API")
        .check(classes);
  }

  @Test
  void publicApiExposesNoImplType() {
    classes().that().resideOutsideOfPackage("..impl..").and().arePublic()
        .should(exposeNoImplType())
        .check(classes);
  }

  @Test
  void publicApiTypesDoNotExtendImplTypes() {
    classes().that().resideOutsideOfPackage("..impl..").and().arePublic()
        .should().notBeAssignableTo(DescribedPredicate.describe("a class of an impl package",
            (JavaClass c) -> c.getPackageName().contains(".impl") && !c.isInterface()))
        .check(classes);
  }

  @Test
  void vertxInternalsAreReachedFromNamedPlacesOnly() {
    noClasses().that(DescribedPredicate.describe("not named in VERTX_INTERNAL_USERS",
            (JavaClass c) -> !VERTX_INTERNAL_USERS.contains(c.getName())
                && !VERTX_INTERNAL_USERS.contains(c.getName().replaceAll("\\$.*", ""))))
        .should().dependOnClassesThat().resideInAnyPackage("io.vertx.core.internal..", "io.vertx.core.impl..")
        .check(classes);
  }

  /** Public constructors, methods and fields of a public API class: no parameter, return or field type of impl. */
  private static ArchCondition<JavaClass> exposeNoImplType() {
    return new ArchCondition<>("expose no type of an impl package in a public signature") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        Stream<JavaCodeUnit> units = type.getCodeUnits().stream()
            .filter(unit -> unit.getModifiers().contains(JavaModifier.PUBLIC)
                || unit.getModifiers().contains(JavaModifier.PROTECTED));
        units.forEach(unit -> {
          Stream.concat(Stream.of(unit.getRawReturnType()), unit.getRawParameterTypes().stream())
              .filter(t -> t.getPackageName().contains(".impl") && t.getPackageName().startsWith("io.mcpvertx"))
              .forEach(t -> events.add(SimpleConditionEvent.violated(unit,
                  unit.getFullName() + " exposes " + t.getName())));
        });
        type.getFields().stream()
            .filter(f -> f.getModifiers().contains(JavaModifier.PUBLIC))
            .filter(f -> f.getRawType().getPackageName().contains(".impl"))
            .forEach(f -> events.add(SimpleConditionEvent.violated(f, f.getFullName() + " exposes "
                + f.getRawType().getName())));
      }
    };
  }
}
