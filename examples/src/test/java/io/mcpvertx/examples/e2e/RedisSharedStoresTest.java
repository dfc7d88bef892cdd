package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.examples.config.ExampleConfig;
import io.mcpvertx.examples.config.ExampleStores;
import io.mcpvertx.examples.conformance.ConformanceFixtures;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.spi.EventStore;
import io.mcpvertx.storage.redis.RedisEventStore;
import io.mcpvertx.storage.redis.RedisSessionStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of the conformance example, each a Vert.x of its own with its own Redis client, configured as the
 * examples jar is ({@code --store redis}) against one private Redis: a session initialized through A goes on
 * through B, a 2025-11-25 task created through A is answered through B, a stream dropped on A resumes on B with
 * exactly the missed events, and a delete through B ends the session on both.
 */
@ExtendWith(VertxExtension.class)
class RedisSharedStoresTest {

  private static TestRedis redis;

  @TempDir
  Path dir;
  private Vertx second;
  private static final String VERSION = "2025-11-25";

  private final List<Runnable> closers = new ArrayList<>();

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start(RedisSharedStoresTest.class);
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @AfterEach
  void close() {
    closers.forEach(Runnable::run);
    if (second != null) {
      second.close();
    }
  }

  private RedisStoreOptions redisOptions() {
    return new RedisStoreOptions().setConnectionString(redis.url()).setKeyPrefix(redis.keyPrefix());
  }

  /** The configuration the jar would read from this file and these flags. */
  private ExampleConfig config() throws Exception {
    Path file = dir.resolve("config.json");
    Files.writeString(file, new JsonObject()
        // A short idle timeout: an instance learns of a delete through another one within a quarter of it.
        .put("http", new JsonObject().put("port", 0).put("sessionIdleTimeoutMs", 2_000))
        .put("redis", redisOptions().toJson())
        .encode());
    return ExampleConfig.load(new String[] {"conformance", "--config", file.toString(), "--store", "redis"},
        Map.of());
  }

  /** Starts one instance on {@code vertx}: stores, server and endpoint as the jar makes them. */
  private Future<Integer> instance(Vertx vertx, ExampleConfig config) {
    return ExampleStores.create(vertx, config).compose(stores -> {
      McpServer server = ConformanceFixtures.register(McpServer.create(vertx,
          ConformanceFixtures.options().setTaskOptions(config.tasks()), stores.stores()));
      McpHttpServer http = McpHttpServer.create(vertx, server, config.httpOptions());
      closers.add(() -> http.close().eventually(stores::close));
      return http.listen().map(McpHttpServer::actualPort);
    });
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  private static Future<Void> until(Vertx vertx, Supplier<Future<Boolean>> condition) {
    return condition.get().compose(met -> met ? Future.succeededFuture()
        : vertx.timer(25).compose(v -> until(vertx, condition)));
  }

  @Test
  void aSessionItsTasksAndItsStreamsMoveBetweenInstances(Vertx vertx, VertxTestContext test) throws Exception {
    ExampleConfig config = config();
    second = Vertx.vertx();
    RedisSessionStore sessions = RedisSessionStore.create(vertx, redisOptions());
    RedisEventStore events = RedisEventStore.create(vertx, redisOptions());
    closers.add(sessions::close);
    closers.add(events::close);
    Future.all(instance(vertx, config), instance(second, config)).compose(ports -> {
      int a = ports.resultAt(0);
      int b = ports.resultAt(1);
      StreamableHttp http = StreamableHttp.http1(vertx, a);
      closers.add(http::close);
      return http.initialize(VERSION, new JsonObject().put("tasks", new JsonObject())).compose(session -> session
          .call("logging/setLevel", new JsonObject().put("level", "error"))
          .compose(r -> session.at(b).call("tools/list", null))
          .compose(list -> {
            test.verify(() -> assertTrue(list.getJsonArray("tools").size() > 5, list::toString));
            // A 2025-11-25 task, created through A: owned by the session, so B answers for it.
            return session.call("tools/call", new JsonObject().put("name", "slow_compute")
                .put("arguments", new JsonObject().put("seconds", 0.3).put("label", "across"))
                .put("task", new JsonObject().put("ttl", 60_000)));
          })
          .compose(created -> {
            String taskId = created.getJsonObject("task").getString("taskId");
            return session.at(b).call("tasks/get", new JsonObject().put("taskId", taskId))
                .compose(got -> {
                  test.verify(() -> assertEquals(taskId, got.getString("taskId")));
                  return session.at(b).call("tasks/result", new JsonObject().put("taskId", taskId));
                });
          })
          .compose(result -> {
            test.verify(() -> assertEquals("Computed across in 0.3 s", text(result)));
            // A stream dropped on A after its first progress, resumed on B once the call is over.
            JsonObject call = session.request("tools/call", new JsonObject().put("name", "test_streaming_progress")
                .put("arguments", new JsonObject().put("steps", 3).put("intervalMs", 100))
                .put("_meta", new JsonObject().put("progressToken", "moving")));
            return session.stream(call).compose(stream -> stream.await(SseParser.Event::hasMessage)
                    .compose(first -> stream.drop().map(first)))
                .compose(first -> until(vertx, () -> events
                    .replayAfter(session.id(), first.id()).map(EventStore.Replay::complete)
                    .otherwise(false))
                .compose(v -> session.at(b).resume(first.id()).compose(SseStream::reply)))
                .map(resumed -> {
                  test.verify(() -> {
                    assertEquals(200, resumed.status(), resumed::toString);
                    List<JsonObject> messages = resumed.messages();
                    assertEquals(3, messages.size(), resumed::toString);
                    assertEquals(2, messages.get(0).getJsonObject("params").getInteger("progress"));
                    assertEquals(3, messages.get(1).getJsonObject("params").getInteger("progress"));
                    assertEquals(call.getLong("id"), messages.get(2).getLong("id"));
                    assertTrue(messages.get(2).containsKey("result"), resumed::toString);
                  });
                  return resumed;
                });
          })
          .compose(resumed -> session.at(b).delete())
          .compose(deleted -> {
            test.verify(() -> assertEquals(200, deleted.status(), deleted::toString));
            return session.at(b).post(session.request("ping", null));
          })
          .compose(afterOnB -> {
            test.verify(() -> assertEquals(404, afterOnB.status(), afterOnB::toString));
            return sessions.get(session.id());
          })
          .compose(record -> {
            test.verify(() -> assertNull(record));
            // A held the session too: it finds the record gone when it next extends its lifetime.
            return until(vertx, () -> session.post(session.request("ping", null)).map(r -> r.status() == 404));
          }));
    }).onComplete(test.succeedingThenComplete());
  }
}
