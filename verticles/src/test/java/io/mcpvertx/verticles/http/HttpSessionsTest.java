package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Session ids, their end (DELETE, idle and initialize expiry), the session limit, and the version header. */
@ExtendWith(VertxExtension.class)
class HttpSessionsTest {

  private static final String V11 = "2025-11-25";
  /** Short for the tests, long enough that a handshake never races it. */
  private static final long EXPIRY_MS = 500;

  @Test
  void issuesDistinctVisibleAsciiSessionIds(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      StreamableHttp client = server.client();
      List<Future<StreamableHttpSession>> sessions = new ArrayList<>();
      IntStream.range(0, 20).forEach(i -> sessions.add(client.initialize(V11)));
      return Future.all(sessions).map(all -> {
        test.verify(() -> {
          Set<String> ids = new HashSet<>();
          for (StreamableHttpSession session : all.<StreamableHttpSession>list()) {
            assertTrue(session.id().matches("[\\x21-\\x7E]{16,}"), session.id());
            ids.add(session.id());
            assertSchemaValid(V11, session.initializeResponse(), "initialize");
          }
          assertEquals(20, ids.size());
          assertEquals(20, server.http.sessionCount());
        });
        return all;
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void deleteEndsTheSessionAndLaterRequestsGet404(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session ->
        session.delete().compose(deleted -> {
          test.verify(() -> {
            assertEquals(200, deleted.status(), deleted::toString);
            assertEquals(0, server.http.sessionCount());
          });
          return Future.all(session.post(session.request("ping", null)),
              session.listen().compose(SseStream::reply), session.delete());
        }).map(after -> {
          test.verify(() -> {
            for (int i = 0; i < 3; i++) {
              assertRejected(after.resultAt(i), 404);
            }
          });
          return after;
        }))).onComplete(test.succeedingThenComplete());
  }

  @Test
  void deleteLeavesOtherSessionsServed(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      StreamableHttp client = server.client();
      return Future.all(client.initialize(V11), client.initialize(V11)).compose(both -> {
        StreamableHttpSession gone = both.resultAt(0);
        StreamableHttpSession kept = both.resultAt(1);
        return gone.delete().compose(v -> kept.call("tools/list", null)).map(list -> {
          test.verify(() -> assertEquals(1, server.http.sessionCount()));
          return list;
        });
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void expiresIdleSessions(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setSessionIdleTimeoutMs(EXPIRY_MS))
        .compose(server -> server.client().initialize(V11).compose(session -> {
          test.verify(() -> assertEquals(1, server.http.sessionCount()));
          return Poll.until(vertx, () -> server.http.sessionCount() == 0)
              .compose(v -> session.post(session.request("ping", null)));
        }))
        .map(reply -> {
          test.verify(() -> assertRejected(reply, 404));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void heartbeatsKeepASessionWithAnOpenStreamAlive(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions().setSessionIdleTimeoutMs(EXPIRY_MS)
        .setHeartbeatIntervalMs(EXPIRY_MS / 10);
    HttpTestServer.start(vertx, options)
        .compose(server -> server.client().initialize(V11))
        // Twenty keep-alives span twice the idle timeout, with no request from the client meanwhile.
        .compose(session -> session.listen().compose(get -> Poll.until(vertx, () -> get.comments() >= 20))
            .compose(v -> session.pingStatus()))
        .map(status -> {
          test.verify(() -> assertEquals(200, status));
          return status;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void expiresSessionsThatNeverSentInitialized(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setInitializeTimeoutMs(EXPIRY_MS))
        .compose(server -> {
          StreamableHttp client = server.client();
          return Future.all(client.initialize(V11), client.initializeOnly(V11)).compose(both -> {
            StreamableHttpSession initialized = both.resultAt(0);
            String bareId = both.<HttpReply>resultAt(1).header("Mcp-Session-Id");
            StreamableHttpSession bare = new StreamableHttpSession(client, bareId, V11, null);
            return Poll.until(vertx, () -> server.http.sessionCount() == 1)
                .compose(v -> Future.all(initialized.pingStatus(), bare.pingStatus()));
          });
        })
        .map(statuses -> {
          test.verify(() -> {
            assertEquals(200, statuses.<Integer>resultAt(0));
            assertEquals(404, statuses.<Integer>resultAt(1));
          });
          return statuses;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answers503WithRetryAfterAtTheSessionLimitAndServesAgainOnceASessionEnds(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx, new McpHttpServerOptions().setMaxSessions(2)).compose(server -> {
      StreamableHttp client = server.client();
      return Future.all(client.initialize(V11), client.initialize(V11))
          .compose(two -> client.initializeOnly(V11).compose(refused -> {
            test.verify(() -> {
              JsonObject error = assertRejected(refused, 503);
              assertEquals(JsonRpcErrorCodes.SERVER_OVERLOADED, error.getInteger("code"));
              assertNotNull(refused.header("Retry-After"));
              assertTrue(Integer.parseInt(refused.header("Retry-After")) > 0);
              assertEquals(2, server.http.sessionCount());
            });
            return two.<StreamableHttpSession>resultAt(0).delete();
          }))
          .compose(deleted -> client.initialize(V11))
          .map(third -> {
            test.verify(() -> assertEquals(2, server.http.sessionCount()));
            return third;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", "2025-11-25"})
  void acceptsAnySupportedVersionInTheHeader(String header, Vertx vertx, VertxTestContext test) {
    // The 0.1.16 conformance scenarios send 2025-03-26 on a session negotiated at 2025-11-25.
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.request("tools/list", null),
            session.postHeaders().set("MCP-Protocol-Version", header)).map(reply -> {
              test.verify(() -> {
                assertEquals(200, reply.status(), reply::toString);
                assertSchemaValid(V11, reply.messages().get(0), "tools/list");
              });
              return reply;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void acceptsRequestsWithoutTheVersionHeader(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.request("ping", null),
            session.postHeaders().remove("MCP-Protocol-Version")))
        .map(reply -> {
          test.verify(() -> {
            assertEquals(200, reply.status(), reply::toString);
            assertEquals(new JsonObject(), reply.messages().get(0).getJsonObject("result"));
          });
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void aFailedInitializeLeavesNoSession(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      JsonObject initialize = StreamableHttp.initializeRequest(V11);
      initialize.getJsonObject("params").put("clientInfo", "not an object");
      return server.client().post(StreamableHttp.postHeaders(), initialize).compose(reply -> {
        test.verify(() -> {
          JsonObject response = reply.messages().get(0);
          assertEquals(JsonRpcErrorCodes.INVALID_PARAMS, response.getJsonObject("error").getInteger("code"));
          assertSchemaValid(V11, response, "initialize");
          assertNull(reply.header("Mcp-Session-Id"), "a session id for a session that is already gone");
        });
        return Poll.until(vertx, () -> server.http.sessionCount() == 0);
      });
    }).onComplete(test.succeedingThenComplete());
  }
}
