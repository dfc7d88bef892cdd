package io.mcpvertx.verticles.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Session verticles start on the event loop of the code that creates them, and a transport in the same JVM hands
 * them messages without the event bus.
 */
@ExtendWith(VertxExtension.class)
class SessionPlacementTest {

  private static final String LATEST = "2025-11-25";

  /** As many loops as {@link SessionPlacement#MAX_ATTEMPTS}: the wanted one always comes within the attempts. */
  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(SessionPlacement.MAX_ATTEMPTS));
  }

  @AfterEach
  void stop(VertxTestContext test) {
    vertx.close().onComplete(test.succeedingThenComplete());
  }

  private static McpServer server(Vertx vertx, List<String> toolThreads) {
    return McpServer.create(vertx).tool(Tool.builder("where").build(), (args, ctx) -> {
      toolThreads.add(Thread.currentThread().getName());
      return Future.succeededFuture(ToolResult.text(Thread.currentThread().getName()));
    });
  }

  /** A verticle standing in for an HTTP verticle: it creates sessions from its own event loop. */
  private static final class Creator extends VerticleBase {

    Thread loop;

    @Override
    public Future<?> start() {
      loop = Thread.currentThread();
      return Future.succeededFuture();
    }

    void run(Runnable action) {
      context.runOnContext(v -> action.run());
    }

    Future<SessionVerticle> create(McpServer server, String id) {
      Promise<SessionVerticle> created = Promise.promise();
      context.runOnContext(v -> {
        SessionVerticle session = new SessionVerticle(server, id, "nowhere", null);
        SessionPlacement.deploy(vertx, session, SessionPlacement.here()).map(session).onComplete(created);
      });
      return created.future();
    }
  }

  private Future<List<SessionVerticle>> createMany(Creator creator, McpServer server, int count,
      List<SessionVerticle> made) {
    if (made.size() == count) {
      return Future.succeededFuture(made);
    }
    return creator.create(server, "s" + made.size()).compose(session -> {
      made.add(session);
      return createMany(creator, server, count, made);
    });
  }

  @Test
  void sessionsCreatedOnAnEventLoopRunOnThatLoop(VertxTestContext test) {
    Creator creator = new Creator();
    McpServer server = server(vertx, new CopyOnWriteArrayList<>());
    vertx.deployVerticle(creator)
        .compose(id -> createMany(creator, server, 12, new ArrayList<>()))
        .onComplete(test.succeeding(sessions -> test.verify(() -> {
          for (SessionVerticle session : sessions) {
            assertTrue(session.runsOn(creator.loop), "a session started on another event loop");
          }
          test.completeNow();
        })));
  }

  @Test
  void aSessionStartsAnywhereWhenItsLoopDoesNotComeAndLeavesNoFailedDeployment(VertxTestContext test) {
    // A thread that is no event loop of this Vert.x: every attempt misses, and the last one starts where it lands.
    Thread nowhere = new Thread(() -> { });
    McpServer server = server(vertx, new CopyOnWriteArrayList<>());
    Set<String> before = new HashSet<>(vertx.deploymentIDs());
    SessionVerticle session = new SessionVerticle(server, "lost", "nowhere", null);
    SessionPlacement.deploy(vertx, session, nowhere).onComplete(test.succeeding(id -> test.verify(() -> {
      Set<String> after = new HashSet<>(vertx.deploymentIDs());
      after.removeAll(before);
      assertEquals(Set.of(id), after);
      test.completeNow();
    })));
  }

  @Test
  void deliveredMessagesAreAnsweredOnTheSessionLoopInTheOrderSent(VertxTestContext test) {
    Creator creator = new Creator();
    List<String> toolThreads = new CopyOnWriteArrayList<>();
    McpServer server = server(vertx, toolThreads);
    List<JsonRpcMessage> answers = new CopyOnWriteArrayList<>();
    Promise<Void> all = Promise.promise();
    MessageSink sink = message -> {
      answers.add(message);
      if (answers.size() == 6) {
        all.complete();
      }
    };
    vertx.deployVerticle(creator)
        .compose(id -> creator.create(server, "ordered"))
        .onSuccess(session -> creator.run(() -> {
          session.deliver(new JsonRpcRequest(JsonRpcId.of(0), "initialize", new JsonObject()
              .put("protocolVersion", LATEST).put("capabilities", new JsonObject())
              .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"))), sink, null);
          session.deliver(new JsonRpcNotification("notifications/initialized", null), sink,
              null);
          for (int i = 1; i <= 5; i++) {
            session.deliver(new JsonRpcRequest(JsonRpcId.of(i), "tools/call",
                new JsonObject().put("name", "where")), sink, null);
          }
        }))
        .compose(v -> all.future())
        .onComplete(test.succeeding(v -> test.verify(() -> {
          for (int i = 0; i < 6; i++) {
            JsonRpcResponse response = assertInstanceOf(JsonRpcResponse.class, answers.get(i));
            assertEquals(JsonRpcId.of(i), response.id());
          }
          assertEquals(5, toolThreads.size());
          toolThreads.forEach(name -> assertEquals(creator.loop.getName(), name));
          test.completeNow();
        })));
  }
}
