package io.mcpvertx.server;

import static io.mcpvertx.server.SessionFixtures.assertError;
import static io.mcpvertx.server.SessionFixtures.assertNoViolations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The initialize exchange: version negotiation, the result's shape per revision, and bad initialize params. */
@ExtendWith(VertxExtension.class)
class InitializeTest {

  private static JsonObject initializeParams(String version) {
    return new JsonObject().put("protocolVersion", version).put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void answersInitializeWithTheRequestedVersionAndEverythingRegistered(String version, Vertx vertx,
      VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize(version).map(result -> {
          test.verify(() -> {
            assertEquals(version, result.getString("protocolVersion"));
            JsonObject capabilities = result.getJsonObject("capabilities");
            assertEquals(new JsonObject(), capabilities.getJsonObject("logging"));
            assertEquals(new JsonObject().put("listChanged", true), capabilities.getJsonObject("tools"));
            assertEquals(new JsonObject().put("subscribe", true).put("listChanged", true),
                capabilities.getJsonObject("resources"));
            assertEquals(new JsonObject().put("listChanged", true), capabilities.getJsonObject("prompts"));
            assertEquals(!version.equals("2024-11-05"), capabilities.containsKey("completions"), version);
            assertEquals(SessionFixtures.INSTRUCTIONS, result.getString("instructions"));
            JsonObject info = result.getJsonObject("serverInfo");
            assertEquals("full", info.getString("name"));
            assertEquals("2.0.0", info.getString("version"));
            boolean titles = version.equals("2025-06-18") || version.equals("2025-11-25");
            assertEquals(titles ? "Full Server" : null, info.getString("title"), version);
            boolean latest = version.equals("2025-11-25");
            assertEquals(latest, info.containsKey("description"), version);
            assertEquals(latest, info.containsKey("websiteUrl"), version);
            assertEquals(latest, info.containsKey("icons"), version);
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void advertisesOnlyLoggingWhenNothingIsRegistered(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, McpServer.create(vertx))
        .compose(client -> client.initialize("2025-11-25").map(result -> {
          test.verify(() -> {
            assertEquals(new JsonObject().put("logging", new JsonObject()), result.getJsonObject("capabilities"));
            assertFalse(result.containsKey("instructions"));
            assertEquals(McpServerOptions.DEFAULT_NAME, result.getJsonObject("serverInfo").getString("name"));
            assertFalse(result.getJsonObject("serverInfo").containsKey("title"));
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void advertisesToolsOnlyWhenOnlyToolsAreRegistered(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.echoServer(vertx, new McpServerOptions()))
        .compose(client -> client.initialize("2025-06-18").map(result -> {
          test.verify(() -> {
            assertEquals(Set.of("logging", "tools"), result.getJsonObject("capabilities").fieldNames());
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void omitsCompletionsWhenNoCompletionHandlerIsRegistered(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).prompt(io.mcpvertx.server.prompts.Prompt.of("p", "d"),
        (args, ctx) -> Future.succeededFuture(io.mcpvertx.server.prompts.PromptResult.of(
            io.mcpvertx.server.prompts.PromptMessage.user("x"))));
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize("2025-11-25").map(result -> {
          test.verify(() -> {
            assertEquals(Set.of("logging", "prompts"), result.getJsonObject("capabilities").fieldNames());
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1999-01-01", "2026-07-28", "2025-11-25-draft", ""})
  void offersTheLatestVersionForOneItDoesNotSpeak(String requested, Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize(requested).map(result -> {
          test.verify(() -> {
            assertEquals("2025-11-25", result.getString("protocolVersion"));
            assertEquals("2025-11-25", client.version());
            assertEquals("Full Server", result.getJsonObject("serverInfo").getString("title"));
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsInitializeWithoutProtocolVersionThenAcceptsARetry(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.request("initialize", initializeParams("x").copy().put("protocolVersion", null))
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS, 1));
              JsonObject params = initializeParams("x");
              params.remove("protocolVersion");
              return client.request("initialize", params);
            })
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS, 2));
              return client.request("initialize", null);
            })
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS, 3));
              return client.initialize("2025-06-18");
            })
            .compose(result -> client.call("tools/list", null))
            .map(list -> {
              test.verify(() -> {
                assertEquals(1, list.getJsonArray("tools").size());
                assertNoViolations(client);
              });
              return list;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsInitializeWithNonStringProtocolVersion(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.request("initialize", initializeParams("x").put("protocolVersion", 20250618))
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS));
              return client.initialize("2025-11-25");
            })
            .map(result -> {
              test.verify(() -> assertNoViolations(client));
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsInitializeWithNonObjectCapabilities(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.request("initialize", initializeParams("2025-11-25").put("capabilities", "all"))
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS));
              return client.initialize("2025-11-25");
            })
            .map(result -> {
              test.verify(() -> assertNoViolations(client));
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsInitializeWithMalformedClientInfo(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.request("initialize", initializeParams("2025-11-25").put("clientInfo", "me"))
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS));
              return client.request("initialize", initializeParams("2025-11-25")
                  .put("clientInfo", new JsonObject().put("name", 7).put("version", "1")));
            })
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_PARAMS));
              return client.initialize("2025-11-25");
            })
            .map(result -> {
              test.verify(() -> assertNoViolations(client));
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void remembersTheClientDeclaration(Vertx vertx, VertxTestContext test) {
    JsonObject capabilities = new JsonObject().put("sampling", new JsonObject())
        .put("roots", new JsonObject().put("listChanged", true));
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize("2025-06-18", capabilities).map(result -> {
          test.verify(() -> {
            McpSession session = client.session();
            assertEquals("mcp-test-client", session.client().name());
            assertEquals(capabilities, session.client().capabilities());
            assertEquals("2025-06-18", session.protocolVersion().orElseThrow().id());
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }
}
