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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The official MCP JSON Schemas ({@code shared/spec/<version>/schema.json}, beside this repository), used to
 * check every message our server emits in tests. Extensions' schemas sit beside the revisions' and load the same
 * way, under a name such as {@link #EXT_TASKS}.
 *
 * <p>The directory is found from the {@code mcp.spec.dir} system property, else {@code ../shared/spec} from the
 * repository root (for a linked git worktree, from its main checkout). The schemas are not part of this repository: in a plain clone
 * they are absent, and then every schema check finds nothing to report, said once per run on standard error, while
 * the behaviour assertions of the same tests still run. Under {@code CI=true} their absence is itself a violation,
 * reported by every check, so the run fails at once instead of passing without them. Nothing here throws on the
 * server's path: a check runs inside the server's send, where an exception would only surface as a test's timeout.
 */
public final class SpecSchemas {

  /** The tasks extension's schema ({@code io.modelcontextprotocol/tasks}, SEP-2663): {@code ext-tasks/schema.json}. */
  public static final String EXT_TASKS = "ext-tasks";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, JsonNode> ROOTS = new ConcurrentHashMap<>();
  private static final Map<String, JsonSchema> COMPILED = new ConcurrentHashMap<>();
  private static final Optional<Path> DIR = find();
  private static final String HOW_TO_GET = "pass -Dmcp.spec.dir=<folder holding <revision>/schema.json>, or put "
      + "shared/spec beside the repository";

  private SpecSchemas() {
  }

  /** Whether the schemas were found; if not, says so once (see the class comment). */
  public static boolean available() {
    if (DIR.isEmpty() && !Prerequisites.strict()) {
      Prerequisites.report("MCP schemas not found, so messages are not checked against them (the behaviour "
          + "assertions still run): " + HOW_TO_GET);
    }
    return DIR.isPresent();
  }

  /**
   * For a test about the schemas themselves: returns if they were found, otherwise skips the test (or fails it
   * under {@code CI=true}).
   */
  public static void assumeAvailable() {
    Prerequisites.require(DIR.isPresent(), "MCP schemas", HOW_TO_GET);
  }

  /** Nothing when the schemas are here or may be skipped; under {@code CI=true} without them, one problem. */
  private static List<String> missing() {
    return available() || !Prerequisites.strict() ? List.of()
        : List.of("MCP schemas not found (CI=true needs them): " + HOW_TO_GET);
  }

  private static Optional<Path> find() {
    String explicit = System.getProperty("mcp.spec.dir");
    if (explicit != null) {
      return Optional.of(Paths.get(explicit)).filter(Files::isDirectory);
    }
    Path root = repositoryRoot();
    if (root == null) {
      return Optional.empty();
    }
    List<Path> candidates = new ArrayList<>(List.of(root.resolveSibling("shared").resolve("spec")));
    mainCheckout(root).ifPresent(main -> candidates.add(main.resolveSibling("shared").resolve("spec")));
    return candidates.stream().filter(Files::isDirectory).findFirst();
  }

  /** The repository root: {@code mcp.repo.root} (set by the build), else the nearest folder up holding {@code .git}. */
  private static Path repositoryRoot() {
    String root = System.getProperty("mcp.repo.root");
    if (root != null) {
      return Paths.get(root).toAbsolutePath().normalize();
    }
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return null;
  }

  /**
   * For a linked worktree ({@code .git} is a file naming {@code <main>/.git/worktrees/<name>}), its main checkout,
   * beside which {@code shared/} sits as it would beside a plain checkout.
   */
  private static Optional<Path> mainCheckout(Path root) {
    Path dotGit = root.resolve(".git");
    if (!Files.isRegularFile(dotGit)) {
      return Optional.empty();
    }
    try {
      String line = Files.readString(dotGit).trim();
      if (!line.startsWith("gitdir:")) {
        return Optional.empty();
      }
      Path gitDir = root.resolve(line.substring("gitdir:".length()).trim()).normalize();
      // <main>/.git/worktrees/<name>
      Path worktrees = gitDir.getParent();
      if (worktrees == null || !worktrees.getFileName().toString().equals("worktrees")
          || worktrees.getParent() == null || worktrees.getParent().getParent() == null) {
        return Optional.empty();
      }
      return Optional.of(worktrees.getParent().getParent());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether there is an official schema for this revision (2024-11-05 has none); false when the schemas are absent.
   */
  public static boolean hasSchema(String version) {
    return available() && Files.isRegularFile(DIR.get().resolve(version).resolve("schema.json"));
  }

  /** Violations of {@code instance} against definition {@code name} of revision {@code version}; empty if valid. */
  public static List<String> violations(String version, String name, JsonObject instance) {
    if (!available()) {
      return missing();
    }
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
    if (!available()) {
      return false;
    }
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
        return MAPPER.readTree(DIR.get().resolve(v).resolve("schema.json").toFile());
      } catch (IOException e) {
        throw new IllegalStateException("Cannot read the schema of " + v, e);
      }
    });
  }
}
