package io.mcpvertx.examples.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.metrics.McpMetricsOptions;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.mcpvertx.verticles.http.auth.AuthMode;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flags beat the environment, which beats the config file, which beats the defaults; bad input is named. */
class ExampleConfigTest {

  @TempDir
  Path dir;

  private Path file(JsonObject json) throws Exception {
    Path file = dir.resolve("config.json");
    Files.writeString(file, json.encodePrettily());
    return file;
  }

  private static JsonObject fullFile() {
    return new JsonObject()
        .put("http", new JsonObject().put("host", "0.0.0.0").put("port", 4000).put("maxSessions", 77))
        .put("store", "redis")
        .put("redis", new JsonObject().put("connectionStrings", List.of("redis://file:6379")).put("keyPrefix", "f:"))
        .put("tasks", new JsonObject().put("defaultTtlMs", 1234))
        .put("auth", new JsonObject().put("mode", "jwt").put("issuer", "https://file.example")
            .put("resource", "https://file.example/mcp"));
  }

  @Test
  void defaultsToHelloOverStdioInMemory() {
    ExampleConfig config = ExampleConfig.load(new String[0], Map.of());
    assertEquals("hello", config.example());
    assertFalse(config.http());
    assertEquals(ExampleConfig.Store.MEMORY, config.store());
    assertEquals(McpHttpServerOptions.DEFAULT_PORT, config.httpOptions().getPort());
    assertEquals("127.0.0.1", config.httpOptions().getHost());
    assertFalse(config.auth().isEnabled());
  }

  @Test
  void turnsMetricsOnByFlagEnvironmentOrFileAndLeavesThemOffOtherwise() throws Exception {
    assertTrue(ExampleConfig.load(new String[] {"--http"}, Map.of()).metrics().isEmpty(), "off by default");
    assertEquals(McpMetricsOptions.DEFAULT_PORT,
        ExampleConfig.load(new String[] {"--http", "--metrics"}, Map.of()).metrics().orElseThrow().getPort());
    assertEquals(9100,
        ExampleConfig.load(new String[] {"--metrics", "9100", "conformance"}, Map.of()).metrics().orElseThrow()
            .getPort());
    assertEquals(9200, ExampleConfig.load(new String[0], Map.of("MCP_METRICS", "true", "MCP_METRICS_PORT", "9200"))
        .metrics().orElseThrow().getPort());
    Path file = file(new JsonObject().put("metrics", new JsonObject().put("enabled", true).put("port", 9300)
        .put("path", "/prometheus")));
    McpMetricsOptions fromFile = ExampleConfig.load(new String[] {"--config", file.toString()}, Map.of())
        .metrics().orElseThrow();
    assertEquals(9300, fromFile.getPort());
    assertEquals("/prometheus", fromFile.getPath());
    assertEquals(9400, ExampleConfig.load(new String[] {"--config", file.toString(), "--metrics", "9400"}, Map.of())
        .metrics().orElseThrow().getPort(), "the flag beats the file");
    Path off = file(new JsonObject().put("metrics", new JsonObject().put("port", 9300)));
    assertTrue(ExampleConfig.load(new String[] {"--config", off.toString()}, Map.of()).metrics().isEmpty(),
        "a metrics section without enabled configures them without turning them on");
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> ExampleConfig.load(new String[0], Map.of("MCP_METRICS", "true", "MCP_METRICS_PORT", "lots")));
    assertTrue(bad.getMessage().startsWith("MCP_METRICS_PORT takes a whole number"), bad.getMessage());
  }

  @Test
  void readsEverySectionOfTheFile() throws Exception {
    ExampleConfig config = ExampleConfig.load(new String[] {"conformance", "--config", file(fullFile()).toString()},
        Map.of());
    assertEquals("conformance", config.example());
    assertTrue(config.http(), "an http object serves over HTTP");
    assertEquals("0.0.0.0", config.httpOptions().getHost());
    assertEquals(4000, config.httpOptions().getPort());
    assertEquals(77, config.httpOptions().getMaxSessions());
    assertEquals(ExampleConfig.Store.REDIS, config.store());
    assertEquals(List.of("redis://file:6379"), config.redis().getConnectionStrings());
    assertEquals("f:", config.redis().getKeyPrefix());
    assertEquals(1234, config.tasks().getDefaultTtlMs());
    assertEquals(AuthMode.JWT, config.httpOptions().getAuth().getMode());
    assertEquals("https://file.example", config.auth().getIssuer());
    assertEquals("https://file.example/mcp", config.auth().getResource());
  }

  @Test
  void theEnvironmentBeatsTheFile() throws Exception {
    Map<String, String> env = Map.of("MCP_CONFIG", file(fullFile()).toString(), "MCP_STORE", "memory",
        "MCP_REDIS_URL", "redis://env:6379", "MCP_AUTH_ISSUER", "https://env.example");
    ExampleConfig config = ExampleConfig.load(new String[0], env);
    assertEquals(ExampleConfig.Store.MEMORY, config.store());
    assertEquals(List.of("redis://env:6379"), config.redis().getConnectionStrings());
    assertEquals("f:", config.redis().getKeyPrefix(), "the rest of the file's redis options stay");
    assertEquals("https://env.example", config.auth().getIssuer());
    assertEquals("https://file.example/mcp", config.auth().getResource(), "the rest of the file's auth stays");
    assertEquals(4000, config.httpOptions().getPort());
  }

  @Test
  void flagsBeatTheEnvironmentAndTheFile() throws Exception {
    Map<String, String> env = Map.of("MCP_CONFIG", dir.resolve("missing.json").toString(), "MCP_STORE", "memory",
        "MCP_REDIS_URL", "redis://env:6379", "MCP_AUTH_ISSUER", "https://env.example");
    String[] args = {"--config", file(fullFile()).toString(), "--store", "REDIS", "--redis-url", "redis://flag:6379",
        "--http", "5000", "--auth-issuer", "https://flag.example", "clock"};
    ExampleConfig config = ExampleConfig.load(args, env);
    assertEquals("clock", config.example());
    assertEquals(ExampleConfig.Store.REDIS, config.store());
    assertEquals(List.of("redis://flag:6379"), config.redis().getConnectionStrings());
    assertEquals(5000, config.httpOptions().getPort());
    assertEquals("0.0.0.0", config.httpOptions().getHost(), "what no flag sets comes from the file");
    assertEquals("https://flag.example", config.auth().getIssuer());
  }

  @Test
  void httpWithoutAPortKeepsTheFilesPort() throws Exception {
    ExampleConfig config = ExampleConfig.load(new String[] {"--config", file(fullFile()).toString(), "--http"},
        Map.of());
    assertEquals(4000, config.httpOptions().getPort());
    ExampleConfig plain = ExampleConfig.load(new String[] {"--http"}, Map.of());
    assertTrue(plain.http());
    assertEquals(3000, plain.httpOptions().getPort());
    assertEquals("http://127.0.0.1:3000/mcp",
        ExampleConfig.load(new String[] {"--http", "--auth-issuer", "https://as"}, Map.of()).auth().getResource());
  }

  @Test
  void namesWhatIsWrong() throws Exception {
    assertMessage("unknown store \"disk\"", new String[] {"--store", "disk"}, Map.of());
    assertMessage("unknown store \"tape\"", new String[0], Map.of("MCP_STORE", "tape"));
    assertMessage("--redis-url needs a value", new String[] {"--redis-url"}, Map.of());
    assertMessage("unknown flag --stroe", new String[] {"--stroe", "redis"}, Map.of());
    assertMessage("cannot read the config file", new String[] {"--config", dir.resolve("nope.json").toString()},
        Map.of());
    Path notJson = dir.resolve("bad.json");
    Files.writeString(notJson, "{ http: ");
    assertMessage("is not a JSON object", new String[] {"--config", notJson.toString()}, Map.of());
    assertMessage("unknown key \"stores\"",
        new String[] {"--config", file(new JsonObject().put("stores", "redis")).toString()}, Map.of());
    assertMessage("invalid config file",
        new String[] {"--config", file(new JsonObject().put("http", "everywhere")).toString()}, Map.of());
    assertMessage("invalid config file",
        new String[] {"--config", file(new JsonObject().put("tasks", new JsonObject().put("defaultTtlMs", -1)))
            .toString()}, Map.of());
  }

  private static void assertMessage(String expected, String[] args, Map<String, String> env) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExampleConfig.load(args, env));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void theDocumentedExampleConfigLoads() {
    Path example = Path.of("config", "example-config.json");
    ExampleConfig config = ExampleConfig.load(new String[] {"--config", example.toString()}, Map.of());
    assertTrue(config.http());
    assertEquals(ExampleConfig.Store.REDIS, config.store());
    assertFalse(config.auth().isEnabled());
  }

  @Test
  void clusterFlagsBeatTheEnvironmentWhichBeatsTheFile() throws Exception {
    JsonObject json = new JsonObject().put("store", "redis")
        .put("cluster", new JsonObject().put("enabled", true).put("port", 5801)
            .put("members", new io.vertx.core.json.JsonArray().add("10.0.0.1:5801")))
        .put("instance", new JsonObject().put("name", "file-node").put("leaseTtlMs", 20_000)
            .put("renewIntervalMs", 4_000));
    Map<String, String> env = Map.of("MCP_CONFIG", file(json).toString(), "MCP_CLUSTER_PORT", "5802",
        "MCP_INSTANCE_ID", "env-node");
    ExampleConfig fromEnv = ExampleConfig.load(new String[] {"conformance", "--http"}, env);
    assertTrue(fromEnv.clustered());
    assertEquals(5802, fromEnv.cluster().getPort());
    assertEquals(List.of("10.0.0.1:5801"), fromEnv.cluster().getMembers());
    assertEquals("env-node", fromEnv.instance().getName());
    assertEquals(4_000, fromEnv.instance().getRenewIntervalMs());

    ExampleConfig fromFlags = ExampleConfig.load(new String[] {"conformance", "--http", "--cluster-port", "5803",
        "--cluster-members", "127.0.0.1:5803,127.0.0.1:5804", "--instance-id", "flag-node", "--lease-ttl-ms", "30000",
        "--shutdown-timeout-ms", "2500"}, env);
    assertEquals(5803, fromFlags.cluster().getPort());
    assertEquals(List.of("127.0.0.1:5803", "127.0.0.1:5804"), fromFlags.cluster().getMembers());
    assertEquals("flag-node", fromFlags.instance().getName());
    assertEquals(30_000, fromFlags.instance().getLeaseTtlMs());
    assertEquals(4_000, fromFlags.instance().getRenewIntervalMs(), "the file's renew interval stays");
    assertEquals(2_500, fromFlags.shutdownTimeoutMs());
    assertMessage("three renew intervals", new String[] {"conformance", "--lease-ttl-ms", "3000"}, env);
  }

  @Test
  void connectionAndSessionLimitsComeFromFlagsOrTheEnvironmentOverTheFile() throws Exception {
    JsonObject json = new JsonObject().put("http", new JsonObject().put("maxConnections", 100)
        .put("connectionIdleTimeoutMs", 5_000).put("maxSessionsPerClient", 7));
    Map<String, String> env = Map.of("MCP_CONFIG", file(json).toString(), "MCP_MAX_CONNECTIONS", "200");
    ExampleConfig fromEnv = ExampleConfig.load(new String[] {"hello"}, env);
    assertEquals(200, fromEnv.httpOptions().getMaxConnections());
    assertEquals(5_000, fromEnv.httpOptions().getConnectionIdleTimeoutMs());
    assertEquals(7, fromEnv.httpOptions().getMaxSessionsPerClient());
    ExampleConfig fromFlags = ExampleConfig.load(new String[] {"hello", "--max-connections", "300",
        "--connection-idle-timeout-ms", "9000", "--max-sessions-per-client", "3"}, env);
    assertEquals(300, fromFlags.httpOptions().getMaxConnections());
    assertEquals(9_000, fromFlags.httpOptions().getConnectionIdleTimeoutMs());
    assertEquals(3, fromFlags.httpOptions().getMaxSessionsPerClient());
    assertMessage("--max-connections takes a whole number, not \"many\": e.g. --max-connections 4096",
        new String[] {"--max-connections", "many"}, Map.of());
  }

  @Test
  void aLeaseTtlFlagAloneSetsTheRenewalsToAFifthOfIt() {
    ExampleConfig config = ExampleConfig.load(new String[] {"conformance", "--store", "redis", "--cluster",
        "--lease-ttl-ms", "3000"}, Map.of());
    assertEquals(600, config.instance().getRenewIntervalMs());
    assertEquals(600, config.instance().getOrphanSweepIntervalMs());
  }

  @Test
  void clusteringIsRefusedWithoutSharedStoresOrWithARange() {
    assertMessage("--store redis", new String[] {"conformance", "--cluster"}, Map.of());
    assertMessage("add --cluster", new String[] {"clock", "--worker-only"}, Map.of());
    assertMessage("each member", new String[] {"conformance", "--store", "redis", "--cluster", "--cluster-members",
        "127.0.0.1:5701-5703"}, Map.of());
    ExampleConfig worker = ExampleConfig.load(new String[] {"clock", "--worker-only", "--cluster"}, Map.of());
    assertTrue(worker.workerOnly());
  }
}
