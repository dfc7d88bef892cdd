package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mcpvertx.jsonrpc.JsonRpcCodecOptions;
import io.mcpvertx.server.content.Icon;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class McpServerOptionsTest {

  @Test
  void hasItsDefaults() {
    McpServerOptions options = new McpServerOptions();
    assertEquals(ServerInfo.of(McpServerOptions.DEFAULT_NAME, McpServerOptions.DEFAULT_VERSION),
        options.getServerInfo());
    assertNull(options.getInstructions());
    assertEquals(McpServerOptions.DEFAULT_PAGE_SIZE, options.getPageSize());
    assertEquals(McpServerOptions.DEFAULT_SERVER_REQUEST_TIMEOUT_MS, options.getServerRequestTimeoutMs());
    assertEquals(McpServerOptions.DEFAULT_MAX_PENDING_SERVER_REQUESTS, options.getMaxPendingServerRequests());
    assertEquals(McpServerOptions.DEFAULT_MAX_CONCURRENT_REQUESTS, options.getMaxConcurrentRequests());
    assertEquals(McpServerOptions.DEFAULT_BLOCKING_EXECUTION, options.getBlockingExecution());
    assertEquals(new JsonRpcCodecOptions().toJson(), options.getCodecOptions().toJson());
    assertEquals(new StatelessOptions().toJson(), options.getStatelessOptions().toJson());
    assertEquals(new TaskOptions().toJson(), options.getTaskOptions().toJson());
  }

  @Test
  void theCopyHasEveryValueAndIsIndependent() {
    McpServerOptions original = changed();
    McpServerOptions copy = new McpServerOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    assertEquals(original.getServerInfo(), copy.getServerInfo());
    original.getTaskOptions().setPollIntervalMs(1);
    original.getCodecOptions().setMaxBatchSize(1);
    original.setPageSize(1);
    assertEquals(250, copy.getTaskOptions().getPollIntervalMs());
    assertEquals(8, copy.getCodecOptions().getMaxBatchSize());
    assertEquals(20, copy.getPageSize());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForAbsentKeys() {
    JsonObject json = changed().toJson();
    assertEquals(json, new McpServerOptions(json).toJson());
    assertEquals(changed().getServerInfo(), new McpServerOptions(json).getServerInfo());
    assertEquals(new McpServerOptions().toJson(), new McpServerOptions(new JsonObject()).toJson());
    McpServerOptions partial = new McpServerOptions(new JsonObject().put("tasks", new JsonObject()
        .put("maxActivePerOwner", 7)));
    assertEquals(7, partial.getTaskOptions().getMaxActivePerOwner());
    assertEquals(TaskOptions.DEFAULT_TTL_MS, partial.getTaskOptions().getDefaultTtlMs());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<McpServerOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new McpServerOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new McpServerOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("pageSize", 0, (Consumer<McpServerOptions>) o -> o.setPageSize(0)),
        Arguments.of("serverRequestTimeoutMs", 0, (Consumer<McpServerOptions>) o -> o.setServerRequestTimeoutMs(0)),
        Arguments.of("maxPendingServerRequests", -1,
            (Consumer<McpServerOptions>) o -> o.setMaxPendingServerRequests(-1)),
        Arguments.of("maxConcurrentRequests", 0, (Consumer<McpServerOptions>) o -> o.setMaxConcurrentRequests(0)),
        Arguments.of("codec", new JsonObject().put("maxBatchSize", 0),
            (Consumer<McpServerOptions>) o -> o.setCodecOptions(new JsonRpcCodecOptions().setMaxBatchSize(0))),
        Arguments.of("stateless", new JsonObject().put("listTtlMs", -1),
            (Consumer<McpServerOptions>) o -> o.setStatelessOptions(new StatelessOptions().setListTtlMs(-1))),
        Arguments.of("tasks", new JsonObject().put("maxTtlMs", 0),
            (Consumer<McpServerOptions>) o -> o.setTaskOptions(new TaskOptions().setMaxTtlMs(0))));
  }

  private static McpServerOptions changed() {
    return new McpServerOptions()
        .setServerInfo(new ServerInfo("srv", "2.0.0", "Server", "Serves", "https://srv.example.test",
            List.of(Icon.of("https://srv.example.test/icon.png"))))
        .setInstructions("Be kind.")
        .setPageSize(20)
        .setServerRequestTimeoutMs(5_000)
        .setMaxPendingServerRequests(4)
        .setMaxConcurrentRequests(16)
        .setBlockingExecution(BlockingExecution.values()[BlockingExecution.values().length - 1])
        .setCodecOptions(new JsonRpcCodecOptions().setMaxBatchSize(8))
        .setStatelessOptions(new StatelessOptions().setListTtlMs(10))
        .setTaskOptions(new TaskOptions().setPollIntervalMs(250));
  }
}
