package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.storage.redis.testing.TestRedis;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, run twice with {@code --store redis} against one private Redis: two instances serving one
 * session, its tasks and its end; a jar killed while running a task, whose task the next jar on that Redis
 * settles. And a jar whose Redis does not answer refuses to start, saying why.
 */
class RedisStoreJarIT {

  private static final long TIMEOUT_S = 30;
  private static TestRedis redis;

  @TempDir
  Path dir;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start(RedisStoreJarIT.class);
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /** The key prefix comes from a config file (no flag sets it), the store and the Redis from flags. */
  private List<String> redisArguments() throws Exception {
    Path config = dir.resolve("config.json");
    Files.writeString(config, new JsonObject().put("redis", new JsonObject().put("keyPrefix", redis.keyPrefix()))
        .encode());
    return List.of("--config", config.toString(), "--store", "redis", "--redis-url", redis.url());
  }

  private static int port(HttpExample example) {
    String url = example.url();
    return Integer.parseInt(url.substring(url.lastIndexOf(':') + 1, url.indexOf("/mcp")));
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void twoJarsOnOneRedisServeOneSessionAndItsTasks() throws Exception {
    List<String> arguments = redisArguments();
    Vertx vertx = Vertx.vertx();
    try (HttpExample a = HttpExample.start("conformance", 0, arguments);
         HttpExample b = HttpExample.start("conformance", 0, arguments)) {
      assertTrue(a.output().contains("(store: redis, instance mcp-"), a::output);
      int portA = port(a);
      int portB = port(b);
      StreamableHttpSession client = StreamableHttp.http1(vertx, portA)
          .initialize("2025-11-25", new JsonObject().put("tasks", new JsonObject()))
          .toCompletionStage().toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
      JsonObject greeting = client.at(portB).call( "tools/call", new JsonObject().put("name", "greet")
          .put("arguments", new JsonObject().put("name", "B"))).toCompletionStage().toCompletableFuture()
          .get(TIMEOUT_S, TimeUnit.SECONDS);
      assertEquals("Hello, B!", text(greeting));
      JsonObject created = client.call("tools/call", new JsonObject().put("name", "slow_compute")
          .put("arguments", new JsonObject().put("seconds", 0.2).put("label", "jar"))
          .put("task", new JsonObject().put("ttl", 60_000))).toCompletionStage().toCompletableFuture()
          .get(TIMEOUT_S, TimeUnit.SECONDS);
      String taskId = created.getJsonObject("task").getString("taskId");
      JsonObject result = client.at(portB).call("tasks/result", new JsonObject().put("taskId", taskId))
          .toCompletionStage().toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
      assertEquals("Computed jar in 0.2 s", text(result), () -> a.output() + b.output());
      HttpReply deleted = client.at(portB).delete().toCompletionStage().toCompletableFuture()
          .get(TIMEOUT_S, TimeUnit.SECONDS);
      assertEquals(200, deleted.status(), deleted::toString);
      HttpReply gone = client.at(portB).post(client.request("ping", null)).toCompletionStage()
          .toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
      assertEquals(404, gone.status(), gone::toString);
    } finally {
      vertx.close();
    }
  }

  /**
   * Alone on Redis (no cluster), a jar holds an instance lease all the same: killed while a task runs, its task is
   * failed by the jar started after it, once the dead one's lease has lapsed, and the client waiting in
   * {@code tasks/result} on the new jar gets the error instead of waiting until the task's TTL.
   */
  @Test
  void theTasksOfAKilledJarAreSettledByTheNextJarOnTheSameRedis() throws Exception {
    List<String> arguments = new java.util.ArrayList<>(redisArguments());
    arguments.addAll(List.of("--lease-ttl-ms", "3000"));
    Vertx vertx = Vertx.vertx();
    try (HttpExample first = HttpExample.start("conformance", 0, arguments)) {
      StreamableHttpSession client = StreamableHttp.http1(vertx, port(first))
          .initialize("2025-11-25", new JsonObject().put("tasks", new JsonObject()))
          .toCompletionStage().toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
      JsonObject created = client.call("tools/call", new JsonObject().put("name", "slow_compute")
          .put("arguments", new JsonObject().put("seconds", 300).put("label", "crash"))
          .put("task", new JsonObject().put("ttl", 3_600_000))).toCompletionStage().toCompletableFuture()
          .get(TIMEOUT_S, TimeUnit.SECONDS);
      String taskId = created.getJsonObject("task").getString("taskId");
      first.kill();
      try (HttpExample second = HttpExample.start("conformance", 0, arguments)) {
        HttpReply reply = client.at(port(second)).post(client.request("tasks/result",
                new JsonObject().put("taskId", taskId)))
            .toCompletionStage().toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
        List<JsonObject> messages = reply.messages();
        JsonObject error = messages.get(messages.size() - 1).getJsonObject("error");
        assertEquals(-32603, error.getInteger("code"), reply::toString);
        assertTrue(error.getString("message").contains("stopped before it finished"), reply::toString);
        JsonObject task = client.at(port(second)).call("tasks/get", new JsonObject().put("taskId", taskId))
            .toCompletionStage().toCompletableFuture().get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals("failed", task.getString("status"), task::encode);
      }
    } finally {
      vertx.close();
    }
  }

  @Test
  void aJarWhoseRedisDoesNotAnswerDoesNotStart() throws Exception {
    Path log = dir.resolve("unreachable.log");
    Process process = new ProcessBuilder(ExamplesJar.java(), "-jar", ExamplesJar.jar().toString(), "hello",
        "--http", "0", "--store", "redis", "--redis-url", "redis://127.0.0.1:1")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    try {
      assertTrue(process.waitFor(TIMEOUT_S, TimeUnit.SECONDS), "still running");
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(1, process.exitValue(), output);
      assertTrue(output.contains("Could not start: Redis at [redis://127.0.0.1:1] did not answer"), output);
    } finally {
      process.destroyForcibly();
    }
  }
}
