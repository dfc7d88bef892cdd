package io.mcpvertx.benchmarks;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.TaskOptions;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolExecution;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.RedisTaskStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/** What each mode of {@link TaskLifecycleBench} drives. */
final class TaskSubjects {

  /**
   * Every lifecycle ends well within it. Short, so the in-memory stores hold only the last few seconds' tasks (about
   * 3.7 KB of heap each; with the default hour, a 1 GB heap fills within a measurement and the JVM does little but
   * GC), and so expiry, which every task meets in the end, costs Redis within the measurement as it does in a
   * steady state.
   */
  static final long TTL_MS = 2_000;
  /** How often the in-memory store frees expired tasks. */
  private static final long PURGE_INTERVAL_MS = 500;
  private static final JsonObject RESULT = ToolResult.text("done").toJson(ProtocolVersion.V2026_07_28);
  private static final String EXTENSION = "io.modelcontextprotocol/tasks";

  private TaskSubjects() {
  }

  /** One mode: the operation each loop repeats, and what to release afterwards. */
  interface Subject extends AutoCloseable {

    /** One operation (a lifecycle, or a raw round trip) of loop {@code worker}, on that loop's context. */
    Future<?> run(int worker);

    /** The counting client, for the Redis modes; null otherwise. */
    default CountingRedis client() {
      return null;
    }

    /** {@code tasks/get} calls that found the task not completed yet (engine modes). */
    default long extraGets() {
      return 0;
    }

    default void resetExtraGets() {
    }

    @Override
    void close();
  }

  static Subject create(String mode, Vertx vertx, RedisStoreOptions options, int concurrency) {
    return switch (mode) {
      case "ping" -> raw(vertx, options, worker -> Request.cmd(Command.PING));
      case "set" -> {
        String value = "x".repeat(64);
        yield raw(vertx, options, worker -> Request.cmd(Command.SET).arg(options.getKeyPrefix() + "k" + worker)
            .arg(value));
      }
      case "store-memory" -> store(InMemoryTaskStore.create(vertx, PURGE_INTERVAL_MS), null, concurrency);
      case "store-redis" -> {
        CountingRedis client = counting(vertx, options);
        yield store(RedisTaskStore.create(vertx, client, options), client, concurrency);
      }
      case "engine-memory" -> engine(vertx, InMemoryTaskStore.create(vertx, PURGE_INTERVAL_MS), null, concurrency);
      case "engine-redis" -> {
        CountingRedis client = counting(vertx, options);
        yield engine(vertx, RedisTaskStore.create(vertx, client, options), client, concurrency);
      }
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    };
  }

  private static CountingRedis counting(Vertx vertx, RedisStoreOptions options) {
    return new CountingRedis(Redis.createClient(vertx, options.toRedisOptions()));
  }

  private static Subject raw(Vertx vertx, RedisStoreOptions options,
      IntFunction<Request> request) {
    CountingRedis client = counting(vertx, options);
    return new Subject() {
      @Override
      public Future<?> run(int worker) {
        return client.send(request.apply(worker));
      }

      @Override
      public CountingRedis client() {
        return client;
      }

      @Override
      public void close() {
        await(client.close());
      }
    };
  }

  /** create → complete → get through the SPI, as the engine makes them (its default limit per owner). */
  private static Subject store(TaskStore store, CountingRedis client, int concurrency) {
    String[] owners = new String[concurrency];
    for (int i = 0; i < concurrency; i++) {
      owners[i] = "bench#owner-" + i;
    }
    JsonObject metadata = new JsonObject().put("wire", "extension").put("method", "tools/call").put("tool", "work");
    return new Subject() {
      @Override
      public Future<?> run(int worker) {
        NewTask task = new NewTask(store.newTaskId(owners[worker]), owners[worker], TTL_MS, 500L, metadata,
            TaskOptions.DEFAULT_MAX_ACTIVE_PER_OWNER);
        return store.create(task)
            .compose(created -> store.complete(created.taskId(), TaskStatus.COMPLETED, RESULT, null, null))
            .compose(update -> update.task() == null ? Future.failedFuture("expired before it completed")
                : store.get(update.task().taskId()))
            .compose(read -> read != null && read.status() == TaskStatus.COMPLETED ? Future.succeededFuture()
                : Future.failedFuture("not completed: " + read));
      }

      @Override
      public CountingRedis client() {
        return client;
      }

      @Override
      public void close() {
        await(store.close());
        if (client != null) {
          await(client.close());
        }
      }
    };
  }

  /**
   * A tasks-extension client of a server whose tool {@code work} is always a task and completes at once:
   * {@code tools/call}, then {@code tasks/get} until it reads completed.
   */
  private static Subject engine(Vertx vertx, TaskStore store, CountingRedis client, int concurrency) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setTaskOptions(new TaskOptions()
            .setDefaultTtlMs(TTL_MS)), McpStores.builder(vertx).tasks(store).build())
        .tool(Tool.builder("work").description("Completes at once")
                .execution(ToolExecution.task(TaskSupport.REQUIRED)).build(),
            (args, ctx) -> Future.succeededFuture(ToolResult.text("done")));
    StatelessServer stateless = server.stateless();
    Principal[] principals = new Principal[concurrency];
    for (int i = 0; i < concurrency; i++) {
      principals[i] = new Principal("bench", "owner-" + i, Set.of());
    }
    AtomicLong ids = new AtomicLong();
    LongAdder extraGets = new LongAdder();
    return new Subject() {
      @Override
      public Future<?> run(int worker) {
        Principal principal = principals[worker];
        return serve(request("tools/call", new JsonObject().put("name", "work").put("arguments", new JsonObject())),
            principal).compose(created -> poll(created.getString("taskId"), principal));
      }

      private Future<Void> poll(String taskId, Principal principal) {
        return serve(request("tasks/get", new JsonObject().put("taskId", taskId)), principal).compose(task -> {
          if ("completed".equals(task.getString("status"))) {
            return Future.succeededFuture();
          }
          extraGets.increment();
          return poll(taskId, principal);
        });
      }

      private JsonRpcRequest request(String method, JsonObject params) {
        JsonObject meta = new JsonObject()
            .put(StatelessServer.META_PROTOCOL_VERSION, "2026-07-28")
            .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "bench").put("version", "1"))
            .put(StatelessServer.META_CLIENT_CAPABILITIES, new JsonObject()
                .put("extensions", new JsonObject().put(EXTENSION, new JsonObject())));
        return new JsonRpcRequest(JsonRpcId.of(ids.incrementAndGet()), method, params.put("_meta", meta));
      }

      private Future<JsonObject> serve(JsonRpcRequest request, Principal principal) {
        JsonRpcError refused = stateless.validate(request);
        if (refused != null) {
          return Future.failedFuture(refused.message());
        }
        return stateless.serve(request, principal, message -> { }).response().compose(response ->
            response instanceof JsonRpcResponse result ? Future.succeededFuture(result.result())
                : Future.failedFuture(String.valueOf(response)));
      }

      @Override
      public CountingRedis client() {
        return client;
      }

      @Override
      public long extraGets() {
        return extraGets.sum();
      }

      @Override
      public void resetExtraGets() {
        extraGets.reset();
      }

      @Override
      public void close() {
        await(store.close());
        if (client != null) {
          await(client.close());
        }
      }
    };
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
