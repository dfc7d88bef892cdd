package io.mcpvertx.server;

import static io.mcpvertx.server.SessionFixtures.assertError;
import static io.mcpvertx.server.SessionFixtures.assertNoViolations;
import static io.mcpvertx.server.SessionFixtures.onlyUnmatched;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The session's lifecycle rules: what is served in which state, and how a session ends. */
@ExtendWith(VertxExtension.class)
class LifecycleTest {

  private static JsonObject initializeParams(String version) {
    return new JsonObject().put("protocolVersion", version).put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"));
  }

  @Test
  void answersPingBeforeInitialize(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.call("ping", null).map(result -> {
          test.verify(() -> {
            assertEquals(new JsonObject(), result);
            assertEquals(SessionState.AWAITING_INITIALIZE, client.session().state());
            assertNoViolations(client);
          });
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsOtherRequestsBeforeInitializeAndStaysUsable(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.request("tools/list", null)
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, 1));
              return client.request("tools/call", new JsonObject().put("name", "echo"));
            })
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, 2));
              return client.initialize("2025-11-25");
            })
            .compose(init -> client.call("tools/call", new JsonObject().put("name", "echo")
                .put("arguments", new JsonObject().put("text", "after"))))
            .map(result -> {
              test.verify(() -> {
                assertEquals("after", result.getJsonArray("content").getJsonObject(0).getString("text"));
                assertNoViolations(client);
              });
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsSecondInitializeAndKeepsTheFirstVersion(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize("2025-06-18")
            .compose(init -> client.request("initialize", initializeParams("2025-03-26")))
            .compose(response -> {
              test.verify(() -> {
                assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, 2);
                assertEquals("2025-06-18", client.session().protocolVersion().orElseThrow().id());
                assertEquals(SessionState.OPERATING, client.session().state());
              });
              return client.call("tools/list", null);
            })
            .map(list -> {
              test.verify(() -> assertNoViolations(client));
              return list;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesRequestsAfterInitializeBeforeInitializedNotification(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.call("initialize", initializeParams("2025-11-25"))
            .compose(init -> {
              test.verify(() -> assertEquals(SessionState.AWAITING_INITIALIZED, client.session().state()));
              return client.call("tools/list", null);
            })
            .compose(list -> {
              test.verify(() -> assertEquals("echo", list.getJsonArray("tools").getJsonObject(0).getString("name")));
              client.notify("notifications/initialized", null);
              return client.call("ping", null);
            })
            .map(pong -> {
              test.verify(() -> {
                assertEquals(SessionState.OPERATING, client.session().state());
                assertNoViolations(client);
              });
              return pong;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void ignoresInitializedNotificationBeforeInitialize(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> {
          client.notify("notifications/initialized", null);
          return client.call("ping", null)
              .compose(pong -> {
                test.verify(() -> {
                  assertEquals(SessionState.AWAITING_INITIALIZE, client.session().state());
                  assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                });
                return client.request("tools/list", null);
              })
              .compose(response -> {
                test.verify(() -> assertError(response, JsonRpcErrorCodes.INVALID_REQUEST));
                return client.initialize("2025-03-26");
              })
              .compose(init -> client.call("tools/list", null))
              .map(list -> {
                test.verify(() -> assertNoViolations(client));
                return list;
              });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersUnknownMethodWithMethodNotFound(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> client.request("tools/destroy", new JsonObject()))
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.METHOD_NOT_FOUND, 2));
              return client.request("notifications/initialized", null);
            })
            .compose(response -> {
              test.verify(() -> assertError(response, JsonRpcErrorCodes.METHOD_NOT_FOUND, 3));
              return client.call("ping", null);
            })
            .map(pong -> {
              test.verify(() -> assertNoViolations(client));
              return pong;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void ignoresUnknownNotification(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> {
              client.notify("notifications/something_new", new JsonObject().put("x", 1));
              client.notify("vendor/custom", null);
              return client.call("ping", null);
            })
            .map(pong -> {
              test.verify(() -> {
                assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                assertTrue(client.notifications().isEmpty(), client.notifications().toString());
                assertNoViolations(client);
              });
              return pong;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void rejectsKnownRequestMethodSentWithoutId(String version, Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize(version)
            .compose(init -> {
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\"}"));
              return client.call("tools/list", null);
            })
            .map(list -> {
              test.verify(() -> {
                assertError(onlyUnmatched(client), JsonRpcErrorCodes.INVALID_REQUEST, null);
                assertEquals(1, list.getJsonArray("tools").size());
                assertNoViolations(client);
              });
              return list;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsDuplicateInFlightRequestId(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    McpServer server = gate.register(SessionFixtures.fullServer(vertx));
    String call = "{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"tools/call\",\"params\":{\"name\":\"wait\"}}";
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize("2025-06-18")
            .compose(init -> {
              client.send(Buffer.buffer(call));
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"tools/list\"}"));
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"ping\"}"));
              return client.call("ping", null);
            })
            .compose(pong -> {
              test.verify(() -> {
                assertEquals(1, gate.calls.size());
                assertEquals(2, client.unmatched().size(), client.unmatched().toString());
                for (Object frame : client.unmatched()) {
                  assertError((JsonObject) frame, JsonRpcErrorCodes.INVALID_REQUEST, "dup");
                }
                assertEquals(1, client.session().inFlightRequests());
              });
              gate.releaseAll();
              return client.call("ping", null);
            })
            .map(pong -> {
              test.verify(() -> {
                JsonObject answer = (JsonObject) client.unmatched().get(2);
                assertEquals("dup", answer.getString("id"));
                assertEquals("done", answer.getJsonObject("result").getJsonArray("content").getJsonObject(0)
                    .getString("text"));
                assertEquals(0, client.session().inFlightRequests());
                assertNoViolations(client);
              });
              return pong;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsRequestsBeyondMaxConcurrentRequests(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    McpServer server = gate.register(SessionFixtures.echoServer(vertx,
        new McpServerOptions().setMaxConcurrentRequests(2)));
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> {
              Future<JsonObject> first = client.call("tools/call", SessionFixtures.waitCall());
              Future<JsonObject> second = client.call("tools/call", SessionFixtures.waitCall());
              return client.request("tools/call", SessionFixtures.waitCall()).compose(response -> {
                test.verify(() -> {
                  assertError(response, JsonRpcErrorCodes.SERVER_OVERLOADED, 4);
                  assertEquals(2, gate.calls.size());
                  assertFalse(first.isComplete() || second.isComplete());
                });
                gate.releaseAll();
                return Future.all(first, second);
              });
            })
            .compose(both -> client.call("tools/call", new JsonObject().put("name", "echo")
                .put("arguments", new JsonObject().put("text", "again"))))
            .map(result -> {
              test.verify(() -> assertNoViolations(client));
              return result;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void closedSessionAnswersRequestsWithErrorAndSendsNothingElse(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    McpServer server = gate.register(SessionFixtures.fullServer(vertx));
    McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> client.call("resources/subscribe",
                new JsonObject().put("uri", SessionFixtures.RESOURCE_URI)))
            .compose(subscribed -> {
              Future<JsonObject> inFlight = client.request("tools/call", SessionFixtures.waitCall());
              return client.call("ping", null).compose(pong -> client.close()).compose(closed -> {
                test.verify(() -> {
                  assertEquals(SessionState.CLOSED, client.session().state());
                  assertEquals(1, gate.cancellations.size());
                });
                server.tool(Tool.builder("late").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("x")));
                server.resourceUpdated(SessionFixtures.RESOURCE_URI);
                gate.releaseAll();
                client.notify("notifications/initialized", null);
                return client.request("ping", null);
              }).map(response -> {
                test.verify(() -> {
                  assertError(response, JsonRpcErrorCodes.INVALID_REQUEST, 5);
                  assertFalse(inFlight.isComplete(), "a request cancelled by close must get no response");
                  assertTrue(client.notifications().isEmpty(), client.notifications().toString());
                  assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                  assertTrue(client.serverRequests().isEmpty());
                  assertEquals(0, ((io.mcpvertx.server.impl.McpServerImpl) server).registryListeners());
                  assertNoViolations(client);
                });
                return response;
              });
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void closeIsIdempotent(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize("2025-06-18")
            .compose(init -> client.close())
            .compose(closed -> client.close())
            .compose(closed -> client.request("tools/list", null))
            .map(response -> {
              test.verify(() -> {
                assertError(response, JsonRpcErrorCodes.INVALID_REQUEST);
                assertNoViolations(client);
              });
              return response;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void dropsResponsesWithUnknownIdAndStaysUsable(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.initialize("2025-11-25")
            .compose(init -> {
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}"));
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":\"nope\","
                  + "\"error\":{\"code\":-1,\"message\":\"m\"}}"));
              client.send(Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":null,"
                  + "\"error\":{\"code\":-32700,\"message\":\"m\"}}"));
              return client.call("tools/list", null);
            })
            .map(list -> {
              test.verify(() -> {
                assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                assertEquals(1, list.getJsonArray("tools").size());
                assertNoViolations(client);
              });
              return list;
            }))
        .onComplete(test.succeedingThenComplete());
  }
}
