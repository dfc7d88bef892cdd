package io.mcpvertx.server;

import static io.mcpvertx.server.SessionFixtures.assertError;
import static io.mcpvertx.server.SessionFixtures.assertNoViolations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.testing.McpTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** JSON-RPC batches: served as one array in 2025-03-26, the only revision that has them; refused otherwise. */
@ExtendWith(VertxExtension.class)
class BatchTest {

  private static JsonObject request(Object id, String method, JsonObject params) {
    JsonObject json = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    return params == null ? json : json.put("params", params);
  }

  private static JsonObject notification(String method, JsonObject params) {
    JsonObject json = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    return params == null ? json : json.put("params", params);
  }

  private static JsonObject echo(String text) {
    return new JsonObject().put("name", "echo").put("arguments", new JsonObject().put("text", text));
  }

  /** The answers of a batch response by id; answers with id null are listed under "null-0", "null-1", ... */
  private static Map<String, JsonObject> byId(Object answer) {
    JsonArray array = assertInstanceOf(JsonArray.class, answer, () -> "not a batch response: " + answer);
    Map<String, JsonObject> answers = new HashMap<>();
    int nulls = 0;
    for (Object element : array) {
      JsonObject response = (JsonObject) element;
      Object id = response.getValue("id");
      String key = id == null ? "null-" + nulls++ : String.valueOf(id);
      assertEquals(null, answers.put(key, response), () -> "two answers for id " + key + ": " + array);
    }
    return answers;
  }

  private static Future<McpTestClient> initialized(Vertx vertx, McpServer server, String version) {
    return McpTestClient.inProcess(vertx, server).compose(client -> client.initialize(version).map(client));
  }

  @Test
  void answersBatchWithOneArrayIn20250326(Vertx vertx, VertxTestContext test) {
    initialized(vertx, SessionFixtures.fullServer(vertx), "2025-03-26")
        .compose(client -> client.sendBatch(new JsonArray()
                .add(request(10, "ping", null))
                .add(request("list", "tools/list", null))
                .add(request(12, "tools/call", echo("batched"))))
            .map(answer -> {
              test.verify(() -> {
                Map<String, JsonObject> answers = byId(answer);
                assertEquals(3, answers.size());
                assertEquals(new JsonObject(), answers.get("10").getJsonObject("result"));
                assertEquals("echo", answers.get("list").getJsonObject("result").getJsonArray("tools")
                    .getJsonObject(0).getString("name"));
                assertEquals("batched", answers.get("12").getJsonObject("result").getJsonArray("content")
                    .getJsonObject(0).getString("text"));
                assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                assertNoViolations(client);
              });
              return answer;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesNotificationsOutOfTheBatchResponse(Vertx vertx, VertxTestContext test) {
    initialized(vertx, SessionFixtures.fullServer(vertx), "2025-03-26")
        .compose(client -> client.sendBatch(new JsonArray()
                .add(notification("notifications/cancelled", new JsonObject().put("requestId", 99)))
                .add(request(31, "ping", null))
                .add(notification("notifications/roots/list_changed", null))
                .add(notification("notifications/unknown", null)))
            .map(answer -> {
              test.verify(() -> {
                assertEquals(1, byId(answer).size());
                assertTrue(byId(answer).containsKey("31"));
                assertNoViolations(client);
              });
              return answer;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNothingForABatchOfOnlyNotifications(Vertx vertx, VertxTestContext test) {
    initialized(vertx, SessionFixtures.fullServer(vertx), "2025-03-26")
        .compose(client -> {
          client.send(new JsonArray().add(notification("notifications/initialized", null))
              .add(notification("notifications/unknown", null)).toBuffer());
          return client.call("ping", null).map(pong -> {
            test.verify(() -> {
              assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
              assertNoViolations(client);
            });
            return pong;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void givesInvalidMembersTheirOwnErrorEntries(Vertx vertx, VertxTestContext test) {
    String frame = "[{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"ping\"},"
        + "{\"foo\":\"boo\"},"
        + "1,"
        + "{\"jsonrpc\":\"2.0\",\"id\":102,\"method\":\"tools/list\",\"params\":[]},"
        + "{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\"},"
        + "{\"jsonrpc\":\"2.0\",\"id\":103,\"method\":\"no/such\"},"
        + "{\"jsonrpc\":\"1.0\",\"id\":104,\"method\":\"ping\"}]";
    initialized(vertx, SessionFixtures.fullServer(vertx), "2025-03-26")
        .compose(client -> {
          client.send(Buffer.buffer(frame));
          return client.call("ping", null).map(pong -> {
            test.verify(() -> {
              assertEquals(1, client.unmatched().size(), () -> "expected one array: " + client.unmatched());
              Map<String, JsonObject> answers = byId(client.unmatched().get(0));
              assertEquals(7, answers.size(), answers.toString());
              assertEquals(new JsonObject(), answers.get("101").getJsonObject("result"));
              assertError(answers.get("102"), JsonRpcErrorCodes.INVALID_PARAMS, 102);
              assertError(answers.get("103"), JsonRpcErrorCodes.METHOD_NOT_FOUND, 103);
              assertError(answers.get("104"), JsonRpcErrorCodes.INVALID_REQUEST, 104);
              for (int i = 0; i < 3; i++) {
                assertError(answers.get("null-" + i), JsonRpcErrorCodes.INVALID_REQUEST, null);
              }
              assertNoViolations(client);
            });
            return pong;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsInitializeInsideABatch(Vertx vertx, VertxTestContext test) {
    JsonObject params = new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"));
    initialized(vertx, SessionFixtures.fullServer(vertx), "2025-03-26")
        .compose(client -> client.sendBatch(new JsonArray()
                .add(request(5, "initialize", params))
                .add(request(6, "ping", null)))
            .map(answer -> {
              test.verify(() -> {
                Map<String, JsonObject> answers = byId(answer);
                assertError(answers.get("5"), JsonRpcErrorCodes.INVALID_REQUEST, 5);
                assertEquals(new JsonObject(), answers.get("6").getJsonObject("result"));
                assertEquals("2025-03-26", client.session().protocolVersion().orElseThrow().id());
                assertNoViolations(client);
              });
              return answer;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void waitsForEveryMemberBeforeAnswering(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    initialized(vertx, gate.register(SessionFixtures.fullServer(vertx)), "2025-03-26")
        .compose(client -> {
          Future<Object> batch = client.sendBatch(new JsonArray()
              .add(request("slow", "tools/call", SessionFixtures.waitCall()))
              .add(request("fast", "ping", null)));
          return client.call("ping", null).compose(pong -> {
            test.verify(() -> {
              assertFalse(batch.isComplete(), "answered before every member was done");
              assertEquals(1, gate.calls.size());
            });
            gate.releaseAll();
            return batch;
          }).map(answer -> {
            test.verify(() -> {
              Map<String, JsonObject> answers = byId(answer);
              assertEquals(2, answers.size());
              assertEquals("done", answers.get("slow").getJsonObject("result").getJsonArray("content")
                  .getJsonObject(0).getString("text"));
              assertNoViolations(client);
            });
            return answer;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesACancelledMemberOutOfTheBatchResponse(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    initialized(vertx, gate.register(SessionFixtures.fullServer(vertx)), "2025-03-26")
        .compose(client -> {
          Future<Object> batch = client.sendBatch(new JsonArray()
              .add(request("slow", "tools/call", SessionFixtures.waitCall()))
              .add(request("fast", "ping", null)));
          client.notify("notifications/cancelled", new JsonObject().put("requestId", "slow").put("reason", "bored"));
          return batch.map(answer -> {
            test.verify(() -> {
              Map<String, JsonObject> answers = byId(answer);
              assertEquals(1, answers.size(), answers.toString());
              assertTrue(answers.containsKey("fast"));
              assertEquals("bored", gate.cancellations.get(0));
              assertNoViolations(client);
            });
            return answer;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsNothingForABatchStillOpenWhenTheSessionCloses(Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    initialized(vertx, gate.register(SessionFixtures.fullServer(vertx)), "2025-03-26")
        .compose(client -> {
          Future<Object> batch = client.sendBatch(new JsonArray()
              .add(request("slow", "tools/call", SessionFixtures.waitCall()))
              .add(request("fast", "ping", null)));
          return client.call("ping", null)
              .compose(pong -> client.close())
              .compose(closed -> {
                gate.releaseAll();
                return client.request("ping", null);
              })
              .map(response -> {
                test.verify(() -> {
                  assertError(response, JsonRpcErrorCodes.INVALID_REQUEST);
                  assertFalse(batch.isComplete(), () -> "sent after close: " + batch.result());
                  assertTrue(client.unmatched().isEmpty(), client.unmatched().toString());
                  assertNoViolations(client);
                });
                return response;
              });
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersEveryRequestOfABatchSentAfterCloseWithAnError(Vertx vertx, VertxTestContext test) {
    initialized(vertx, SessionFixtures.fullServer(vertx), "2025-03-26")
        .compose(client -> client.close()
            .compose(closed -> client.sendBatch(new JsonArray()
                .add(request("a", "ping", null))
                .add(notification("notifications/initialized", null))
                .add(request("b", "tools/list", null))))
            .map(answer -> {
              test.verify(() -> {
                Map<String, JsonObject> answers = byId(answer);
                assertEquals(2, answers.size());
                assertError(answers.get("a"), JsonRpcErrorCodes.INVALID_REQUEST, "a");
                assertError(answers.get("b"), JsonRpcErrorCodes.INVALID_REQUEST, "b");
                assertNoViolations(client);
              });
              return answer;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-06-18", "2025-11-25"})
  void rejectsBatchesInRevisionsWithoutThem(String version, Vertx vertx, VertxTestContext test) {
    SessionFixtures.Gate gate = new SessionFixtures.Gate();
    initialized(vertx, gate.register(SessionFixtures.fullServer(vertx)), version)
        .compose(client -> client.sendBatch(new JsonArray()
                .add(request(20, "tools/call", SessionFixtures.waitCall()))
                .add(request(21, "ping", null)))
            .compose(answer -> {
              test.verify(() -> {
                assertError(assertInstanceOf(JsonObject.class, answer), JsonRpcErrorCodes.INVALID_REQUEST, null);
                assertTrue(gate.calls.isEmpty(), "no member of a refused batch may run");
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
  void rejectsBatchBeforeInitialization(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, SessionFixtures.fullServer(vertx))
        .compose(client -> client.sendBatch(new JsonArray().add(request("early", "ping", null)))
            .compose(answer -> {
              test.verify(() -> {
                assertError(assertInstanceOf(JsonObject.class, answer), JsonRpcErrorCodes.INVALID_REQUEST, null);
                assertEquals(SessionState.AWAITING_INITIALIZE, client.session().state());
              });
              return client.initialize("2025-03-26");
            })
            .compose(init -> client.sendBatch(new JsonArray().add(request(7, "ping", null))))
            .map(answer -> {
              test.verify(() -> {
                assertEquals(1, byId(answer).size());
                assertNoViolations(client);
              });
              return answer;
            }))
        .onComplete(test.succeedingThenComplete());
  }
}
