package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.testing.SpecSchemas;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schemas generated for each type case ({@link SchemaTools}) against golden JSON under
 * {@code src/test/resources/schemas}, and each tool definition against the official schema of every revision that
 * has one. Run with {@code -Dgolden.write=true} to rewrite the golden files after a deliberate change; review
 * the diff.
 */
class SchemaGoldenTest {

  private static final Path GOLDEN = Path.of("src/test/resources/schemas");

  private static Tool tool(String name) {
    return AnnotatedFeatures.of(new SchemaTools()).tools().stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow();
  }

  @ParameterizedTest
  @ValueSource(strings = {"scalars", "optionals", "collections", "nested", "recursive"})
  void generatesTheGoldenSchemas(String name) throws IOException {
    JsonObject definition = tool(name).toJson(ProtocolVersion.LATEST);
    Path file = GOLDEN.resolve(name + ".json");
    if (Boolean.getBoolean("golden.write")) {
      Files.writeString(file, definition.encodePrettily() + "\n", StandardCharsets.UTF_8);
    }
    JsonObject golden = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
    assertEquals(golden, definition, () -> "generated:\n" + definition.encodePrettily());
  }

  @ParameterizedTest
  @ValueSource(strings = {"scalars", "optionals", "collections", "nested", "recursive"})
  void definitionsAreValidToolsOfEveryRevision(String name) {
    for (ProtocolVersion version : ProtocolVersion.values()) {
      if (SpecSchemas.hasSchema(version.id()) && SpecSchemas.defines(version.id(), "Tool")) {
        List<String> violations = SpecSchemas.violations(version.id(), "Tool", tool(name).toJson(version));
        assertTrue(violations.isEmpty(), () -> version.id() + ": " + violations);
      }
    }
  }
}
