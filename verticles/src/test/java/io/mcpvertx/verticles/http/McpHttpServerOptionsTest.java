package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.verticles.http.auth.AuthMode;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class McpHttpServerOptionsTest {

  @Test
  void hasItsDefaults() {
    McpHttpServerOptions options = new McpHttpServerOptions();
    assertEquals(McpHttpServerOptions.DEFAULT_HOST, options.getHost());
    assertEquals(McpHttpServerOptions.DEFAULT_PORT, options.getPort());
    assertEquals(McpHttpServerOptions.DEFAULT_PATH, options.getPath());
    assertEquals(McpHttpServerOptions.DEFAULT_RESPONSE_MODE, options.getResponseMode());
    assertEquals(McpHttpServerOptions.DEFAULT_MAX_BODY_BYTES, options.getMaxBodyBytes());
    assertEquals(McpHttpServerOptions.DEFAULT_MAX_SESSIONS, options.getMaxSessions());
    assertEquals(McpHttpServerOptions.DEFAULT_SESSION_IDLE_TIMEOUT_MS, options.getSessionIdleTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_INITIALIZE_TIMEOUT_MS, options.getInitializeTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_MAX_SESSIONS_PER_CLIENT, options.getMaxSessionsPerClient());
    assertEquals(McpHttpServerOptions.DEFAULT_MAX_CONNECTIONS, options.getMaxConnections());
    assertEquals(McpHttpServerOptions.DEFAULT_REQUEST_HEADER_TIMEOUT_MS, options.getRequestHeaderTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_REQUEST_BODY_TIMEOUT_MS, options.getRequestBodyTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_CONNECTION_IDLE_TIMEOUT_MS, options.getConnectionIdleTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_MAX_STREAM_DURATION_MS, options.getMaxStreamDurationMs());
    assertEquals(McpHttpServerOptions.DEFAULT_HEARTBEAT_INTERVAL_MS, options.getHeartbeatIntervalMs());
    assertEquals(McpHttpServerOptions.DEFAULT_SSE_RETRY_MS, options.getSseRetryMs());
    assertFalse(options.isSsePolling());
    assertEquals(McpHttpServerOptions.DEFAULT_MAX_STREAM_QUEUE_BYTES, options.getMaxStreamQueueBytes());
    assertTrue(options.getAllowedOrigins().isEmpty());
    assertTrue(options.getAllowedHosts().isEmpty());
    assertFalse(options.isCors());
    assertFalse(options.getAuth().isEnabled());
    assertEquals(McpHttpServerOptions.DEFAULT_HEALTH_LIVE_PATH, options.getHealthLivePath());
    assertEquals(McpHttpServerOptions.DEFAULT_HEALTH_READY_PATH, options.getHealthReadyPath());
    assertEquals(McpHttpServerOptions.DEFAULT_HEALTH_CHECK_TIMEOUT_MS, options.getHealthCheckTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_ENDED_SESSION_TASK_TIMEOUT_MS,
        options.getEndedSessionTaskTimeoutMs());
  }

  @Test
  void theCopyHasEveryValueAndIsIndependent() {
    McpHttpServerOptions original = changed();
    McpHttpServerOptions copy = new McpHttpServerOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    original.getAllowedHosts().add("elsewhere.test");
    original.getAuth().setResourceName("changed");
    original.setPort(1);
    assertEquals(List.of("mcp.example.test"), copy.getAllowedHosts());
    assertEquals("Example", copy.getAuth().getResourceName());
    assertEquals(8080, copy.getPort());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForAbsentKeys() {
    JsonObject json = changed().toJson();
    assertEquals(json, new McpHttpServerOptions(json).toJson());
    assertEquals(new McpHttpServerOptions().toJson(), new McpHttpServerOptions(new JsonObject()).toJson());
    McpHttpServerOptions noProbes = new McpHttpServerOptions(new JsonObject().putNull("healthLivePath"));
    assertNull(noProbes.getHealthLivePath());
    assertEquals(McpHttpServerOptions.DEFAULT_HEALTH_READY_PATH, noProbes.getHealthReadyPath());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<McpHttpServerOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new McpHttpServerOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new McpHttpServerOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("port", 70_000, (Consumer<McpHttpServerOptions>) o -> o.setPort(70_000)),
        Arguments.of("path", "mcp", (Consumer<McpHttpServerOptions>) o -> o.setPath("mcp")),
        Arguments.of("maxBodyBytes", 0, (Consumer<McpHttpServerOptions>) o -> o.setMaxBodyBytes(0)),
        Arguments.of("maxSessions", -1, (Consumer<McpHttpServerOptions>) o -> o.setMaxSessions(-1)),
        Arguments.of("sessionIdleTimeoutMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setSessionIdleTimeoutMs(0)),
        Arguments.of("initializeTimeoutMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setInitializeTimeoutMs(0)),
        Arguments.of("maxSessionsPerClient", 0, (Consumer<McpHttpServerOptions>) o -> o.setMaxSessionsPerClient(0)),
        Arguments.of("maxConnections", 0, (Consumer<McpHttpServerOptions>) o -> o.setMaxConnections(0)),
        Arguments.of("requestHeaderTimeoutMs", 0,
            (Consumer<McpHttpServerOptions>) o -> o.setRequestHeaderTimeoutMs(0)),
        Arguments.of("requestBodyTimeoutMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setRequestBodyTimeoutMs(0)),
        Arguments.of("connectionIdleTimeoutMs", 0,
            (Consumer<McpHttpServerOptions>) o -> o.setConnectionIdleTimeoutMs(0)),
        Arguments.of("maxStreamDurationMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setMaxStreamDurationMs(0)),
        Arguments.of("heartbeatIntervalMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setHeartbeatIntervalMs(0)),
        Arguments.of("sseRetryMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setSseRetryMs(0)),
        Arguments.of("maxStreamQueueBytes", 0, (Consumer<McpHttpServerOptions>) o -> o.setMaxStreamQueueBytes(0)),
        Arguments.of("healthLivePath", "live", (Consumer<McpHttpServerOptions>) o -> o.setHealthLivePath("live")),
        Arguments.of("healthReadyPath", "ready", (Consumer<McpHttpServerOptions>) o -> o.setHealthReadyPath("ready")),
        Arguments.of("healthCheckTimeoutMs", 0, (Consumer<McpHttpServerOptions>) o -> o.setHealthCheckTimeoutMs(0)),
        Arguments.of("endedSessionTaskTimeoutMs", 0,
            (Consumer<McpHttpServerOptions>) o -> o.setEndedSessionTaskTimeoutMs(0)),
        Arguments.of("auth", new JsonObject().put("clockSkewSeconds", -1),
            (Consumer<McpHttpServerOptions>) o -> o.setAuth(new McpAuthOptions().setClockSkewSeconds(-1))));
  }

  private static McpHttpServerOptions changed() {
    return new McpHttpServerOptions()
        .setHost("0.0.0.0")
        .setPort(8080)
        .setPath("/rpc")
        .setResponseMode(ResponseMode.SSE)
        .setMaxBodyBytes(1024)
        .setMaxSessions(10)
        .setSessionIdleTimeoutMs(1_000)
        .setInitializeTimeoutMs(2_000)
        .setMaxSessionsPerClient(5)
        .setMaxConnections(20)
        .setRequestHeaderTimeoutMs(600)
        .setRequestBodyTimeoutMs(700)
        .setConnectionIdleTimeoutMs(800)
        .setMaxStreamDurationMs(900)
        .setHeartbeatIntervalMs(3_000)
        .setSseRetryMs(400)
        .setSsePolling(true)
        .setMaxStreamQueueBytes(4096)
        .setAllowedOrigins(List.of("https://app.example.test"))
        .setAllowedHosts(List.of("mcp.example.test"))
        .setCors(true)
        .setAuth(new McpAuthOptions().setMode(AuthMode.JWT).setIssuer("https://as.example.test")
            .setResource("https://mcp.example.test/rpc").setResourceName("Example"))
        .setHealthLivePath("/live")
        .setHealthReadyPath(null)
        .setHealthCheckTimeoutMs(500)
        .setEndedSessionTaskTimeoutMs(1_500);
  }

  @Test
  void readsListsAsStrings() {
    McpHttpServerOptions options = new McpHttpServerOptions(new JsonObject()
        .put("allowedHosts", new JsonArray().add("a.test").add("b.test")));
    assertEquals(List.of("a.test", "b.test"), options.getAllowedHosts());
  }
}
