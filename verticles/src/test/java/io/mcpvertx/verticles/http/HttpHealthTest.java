package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.testing.ForwardingEventStore;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.cluster.InstanceOptions;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The liveness and readiness endpoints: GET only, outside the Host and Origin checks, checks bounded in time. */
@ExtendWith(VertxExtension.class)
class HttpHealthTest {

  private record Answer(int status, JsonObject body, String allow) {
  }

  @Test
  void reportsReadyWithInMemoryStores(Vertx vertx, VertxTestContext test) {
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx), options());
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(200, answer.status());
          assertEquals(new JsonObject().put("status", "UP")
              .put("checks", new JsonObject().put("eventStore", "UP").put("taskStore", "UP")), answer.body());
        })))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsNotReadyUntilTheInstanceHoldsItsLease(Vertx vertx, VertxTestContext test) {
    McpStores stores = McpStores.inMemory(vertx);
    McpInstance instance = McpInstance.create(vertx, stores.leases(), new InstanceOptions().setName("probe"));
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx, new McpServerOptions(), stores,
        instance), options());
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(503, answer.status());
          assertEquals("DOWN: this instance holds no lease (not started yet, or lost)",
              answer.body().getJsonObject("checks").getString("lease"));
          assertEquals("UP", answer.body().getJsonObject("checks").getString("leaseStore"));
        })))
        .compose(v -> instance.start())
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(200, answer.status());
          assertEquals("UP", answer.body().getJsonObject("checks").getString("lease"));
        })))
        .compose(v -> server.close())
        .compose(v -> instance.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsLive(Vertx vertx, VertxTestContext test) {
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx), options());
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/live", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(200, answer.status());
          assertEquals(new JsonObject().put("status", "UP"), answer.body());
        })))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsNotReadyWithTheReasonWhenAStoreFailsItsPing(Vertx vertx, VertxTestContext test) {
    EventStore failing = new PingingEventStore(() -> Future.failedFuture(new IllegalStateException("disk on fire")));
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx, new McpServerOptions(),
        McpStores.builder(vertx).events(failing).build()), options());
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(503, answer.status());
          assertEquals("DOWN", answer.body().getString("status"));
          assertEquals("DOWN: disk on fire", answer.body().getJsonObject("checks").getString("eventStore"));
          assertEquals("UP", answer.body().getJsonObject("checks").getString("taskStore"));
        })))
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/live", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> assertEquals(200, answer.status()))))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void reportsNotReadyWhenAStoreNeverAnswers(Vertx vertx, VertxTestContext test) {
    EventStore silent = new PingingEventStore(() -> Promise.<Void>promise().future());
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx, new McpServerOptions(),
        McpStores.builder(vertx).events(silent).build()), options().setHealthCheckTimeoutMs(50));
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(503, answer.status());
          assertEquals("DOWN: no answer within 50 ms",
              answer.body().getJsonObject("checks").getString("eventStore"));
        })))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsPostToAHealthPath(Vertx vertx, VertxTestContext test) {
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx), options());
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.POST, "/health/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> {
          assertEquals(405, answer.status());
          assertEquals("GET", answer.allow());
        })))
        .compose(v -> call(vertx, server, HttpMethod.DELETE, "/health/live", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> assertEquals(405, answer.status()))))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void answersProbesWithoutHostOrOriginChecks(Vertx vertx, VertxTestContext test) {
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx), options());
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/ready", "https://elsewhere.example"))
        .onComplete(test.succeeding(answer -> test.verify(() -> assertEquals(200, answer.status()))))
        .compose(v -> call(vertx, server, HttpMethod.GET, "/mcp", "https://elsewhere.example"))
        .onComplete(test.succeeding(answer -> test.verify(() -> assertEquals(403, answer.status()))))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesNoHealthPathTurnedOff(Vertx vertx, VertxTestContext test) {
    McpHttpServer server = McpHttpServer.create(vertx, McpServer.create(vertx),
        options().setHealthLivePath(null).setHealthReadyPath("/ready"));
    server.listen()
        .compose(v -> call(vertx, server, HttpMethod.GET, "/health/live", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> assertEquals(404, answer.status()))))
        .compose(v -> call(vertx, server, HttpMethod.GET, "/ready", null))
        .onComplete(test.succeeding(answer -> test.verify(() -> assertEquals(200, answer.status()))))
        .compose(v -> server.close())
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void healthOptionsSurviveAJsonRoundTrip() {
    McpHttpServerOptions options = new McpHttpServerOptions().setHealthLivePath(null).setHealthReadyPath("/r")
        .setHealthCheckTimeoutMs(500);
    McpHttpServerOptions copy = new McpHttpServerOptions(options.toJson());
    assertNull(copy.getHealthLivePath());
    assertEquals("/r", copy.getHealthReadyPath());
    assertEquals(500, copy.getHealthCheckTimeoutMs());
    assertEquals(McpHttpServerOptions.DEFAULT_HEALTH_LIVE_PATH, new McpHttpServerOptions().getHealthLivePath());
    assertEquals(options.toJson(), new McpHttpServerOptions(options).toJson());
  }

  private static McpHttpServerOptions options() {
    return new McpHttpServerOptions().setPort(0);
  }

  private static Future<Answer> call(Vertx vertx, McpHttpServer server, HttpMethod method, String path,
      String origin) {
    HttpClient client = vertx.createHttpClient();
    return client.request(method, server.actualPort(), "127.0.0.1", path)
        .compose(request -> {
          if (origin != null) {
            request.putHeader("Origin", origin);
          }
          return request.send();
        })
        .compose(response -> response.body().map(body -> new Answer(response.statusCode(),
            body.length() > 0 && body.getByte(0) == '{' ? body.toJsonObject() : null,
            response.getHeader("Allow"))))
        .eventually(() -> client.close());
  }

  /** An in-memory event store whose ping does what the test says. */
  private static final class PingingEventStore extends ForwardingEventStore {

    private final Supplier<Future<Void>> ping;

    PingingEventStore(Supplier<Future<Void>> ping) {
      super(new InMemoryEventStore(100, 10, 60_000));
      this.ping = ping;
    }

    @Override
    public Future<Void> ping() {
      return ping.get();
    }
  }
}
