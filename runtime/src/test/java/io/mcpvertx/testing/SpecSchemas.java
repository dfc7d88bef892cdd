package io.mcpvertx.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The official MCP JSON Schemas ({@code shared/spec/<version>/schema.json}, beside this repository), used to
 * check every message our server emits in tests. Extensions' schemas sit beside the revisions' and load the same
 * way, under a name such as {@link #EXT_TASKS}.
 *
 * <p>The directory is found from the {@code mcp.spec.dir} system property, else {@code ../shared/spec} from the
 * repository root. A missing directory fails the test: a schema check that silently passes is no check.
 */
public final class SpecSchemas {

  /** The tasks extension's schema ({@code io.modelcontextprotocol/tasks}, SEP-2663): {@code ext-tasks/schema.json}. */
  public static final String EXT_TASKS = "ext-tasks";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, JsonNode> ROOTS = new ConcurrentHashMap<>();
  private static final Map<String, JsonSchema> COMPILED = new ConcurrentHashMap<>();

  private SpecSchemas() {
  }

  /** The spec directory, or an exception saying where we looked. */
  public static Path specDir() {
    String explicit = System.getProperty("mcp.spec.dir");
    if (explicit != null) {
      return Paths.get(explicit);
    }
    String root = System.getProperty("mcp.repo.root");
    Path start = root != null ? Paths.get(root) : Paths.get("").toAbsolutePath();
    for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolveSibling("shared").resolve("spec");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
      candidate = dir.resolve("shared").resolve("spec");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("MCP schemas not found: set -Dmcp.spec.dir, or check out shared/ beside the "
        + "repository (looked upward from " + start + ")");
  }

  /** Whether there is an official schema for this revision (2024-11-05 has none). */
  public static boolean hasSchema(String version) {
    return Files.isRegularFile(specDir().resolve(version).resolve("schema.json"));
  }

  /** Violations of {@code instance} against definition {@code name} of revision {@code version}; empty if valid. */
  public static List<String> violations(String version, String name, JsonObject instance) {
    JsonSchema schema = COMPILED.computeIfAbsent(version + "#" + name, k -> compile(version, name));
    try {
      Set<ValidationMessage> messages = schema.validate(MAPPER.readTree(instance.encode()));
      return messages.stream().map(ValidationMessage::getMessage).sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether revision {@code version} defines {@code name}. */
  public static boolean defines(String version, String name) {
    JsonNode root = root(version);
    return root.path(defsKey(root)).has(name);
  }

  private static JsonSchema compile(String version, String name) {
    JsonNode root = root(version);
    String defs = defsKey(root);
    if (!root.path(defs).has(name)) {
      throw new IllegalArgumentException("Schema " + version + " has no definition " + name);
    }
    ObjectNode copy = root.deepCopy();
    copy.put("$ref", "#/" + defs + "/" + name);
    SpecVersion.VersionFlag flag = defs.equals("$defs") ? SpecVersion.VersionFlag.V202012 : SpecVersion.VersionFlag.V7;
    return JsonSchemaFactory.getInstance(flag).getSchema(copy);
  }

  private static String defsKey(JsonNode root) {
    return root.has("$defs") ? "$defs" : "definitions";
  }

  private static JsonNode root(String version) {
    return ROOTS.computeIfAbsent(version, v -> {
      try {
        return MAPPER.readTree(specDir().resolve(v).resolve("schema.json").toFile());
      } catch (IOException e) {
        throw new IllegalStateException("Cannot read the schema of " + v, e);
      }
    });
  }
}
