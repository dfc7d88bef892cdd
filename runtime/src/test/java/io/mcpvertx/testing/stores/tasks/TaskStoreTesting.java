package io.mcpvertx.testing.stores.tasks;

import io.mcpvertx.spi.tasks.NewTask;
import io.mcpvertx.spi.tasks.TaskIds;
import io.mcpvertx.spi.tasks.TaskPage;
import io.mcpvertx.spi.tasks.TaskRecord;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.mcpvertx.spi.tasks.TaskStore;
import io.mcpvertx.spi.tasks.TaskStoreException.Reason;
import io.mcpvertx.spi.tasks.TaskStoreException;
import io.mcpvertx.spi.tasks.TaskUpdate;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Helpers of {@link TaskStoreContract}, public so that an implementation's own tests can use them too. Waiting
 * blocks the calling thread, which is the test's, never an event loop.
 */
public final class TaskStoreTesting {

  /** How long a test waits for something that should happen soon. */
  public static final long PATIENCE_MS = 10_000;
  /** A TTL short enough to wait for. */
  public static final long SHORT_TTL_MS = 300;
  /** How many times a race is run, for the rare interleaving to show. */
  public static final int RACES = 200;

  public static final Set<TaskStatus> ACTIVE = EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED);
  public static final Set<TaskStatus> ANY = EnumSet.allOf(TaskStatus.class);
  public static final JsonObject RESULT = new JsonObject()
      .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "done")));
  public static final JsonObject ERROR = new JsonObject().put("code", -32603).put("message", "Tool crashed");

  private TaskStoreTesting() {
  }

  /** An owner no other test uses. */
  public static String owner() {
    return "owner-" + TaskIds.generate();
  }

  /** What to create: a task of {@code owner}, with an id the store made for it. */
  public static NewTask newTask(TaskStore store, String owner, Long ttlMs, Long pollIntervalMs, JsonObject metadata,
      int maxActivePerOwner) {
    return new NewTask(store.newTaskId(owner), owner, ttlMs, pollIntervalMs, metadata, maxActivePerOwner);
  }

  /** A new task without TTL or limit. */
  public static TaskRecord create(TaskStore store, String owner) {
    return await(store.create(new NewTask(store.newTaskId(owner), owner, null, 1_000L,
        new JsonObject().put("method", "tools/call"), 0)));
  }

  /** Creates tasks one after the other, so their creation order is certain, and yields their ids in order. */
  public static List<String> createMany(TaskStore store, String owner, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(create(store, owner).taskId());
    }
    return ids;
  }

  /** A new task that expires after {@link #SHORT_TTL_MS}. */
  public static TaskRecord createExpiring(TaskStore store, String owner, int maxActivePerOwner) {
    return await(store.create(new NewTask(store.newTaskId(owner), owner, SHORT_TTL_MS, null, null, maxActivePerOwner)));
  }

  /** An input request as the engine stores it: {@code {method, params}}. */
  public static JsonObject request(String message) {
    return new JsonObject().put("method", "elicitation/create")
        .put("params", new JsonObject().put("mode", "form").put("message", message));
  }

  public static JsonObject answer(String value) {
    return new JsonObject().put("action", "accept").put("content", new JsonObject().put("value", value));
  }

  public static List<String> ids(TaskPage page) {
    return page.tasks().stream().map(TaskRecord::taskId).toList();
  }

  public static void assertMissing(TaskUpdate update) {
    assertEquals(TaskUpdate.missing(), update);
  }

  public static Reason reason(Throwable failure) {
    return assertInstanceOf(TaskStoreException.class, failure).reason();
  }

  /** Runs a call on a context and yields its outcome. */
  public static <T> Future<T> on(Context context, Supplier<Future<T>> call) {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(promise));
    return promise.future();
  }

  /**
   * Makes the calls on as many threads, released together from a spin so that they overlap as closely as the
   * machine allows, and yields their outcomes in the order of the calls.
   */
  public static <T> List<Future<T>> together(List<Supplier<Future<T>>> calls) {
    CountDownLatch ready = new CountDownLatch(calls.size());
    AtomicBoolean go = new AtomicBoolean();
    List<Future<T>> outcomes = new ArrayList<>();
    for (Supplier<Future<T>> call : calls) {
      Promise<T> promise = Promise.promise();
      outcomes.add(promise.future());
      Thread caller = new Thread(() -> {
        ready.countDown();
        while (!go.get()) {
          Thread.onSpinWait();
        }
        try {
          call.get().onComplete(promise);
        } catch (RuntimeException e) {
          promise.fail(e);
        }
      }, "task-store-contract-race");
      caller.setDaemon(true);
      caller.start();
    }
    try {
      assertTrue(ready.await(PATIENCE_MS, TimeUnit.MILLISECONDS), "the callers started");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    go.set(true);
    return outcomes;
  }

  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(PATIENCE_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("expected success, got " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  public static Throwable awaitFailure(Future<?> future) {
    Throwable failure = outcome(future);
    if (failure == null) {
      throw new AssertionError("expected a failure");
    }
    return failure;
  }

  /** The failure a call reports, whether it throws or fails its future: stores may do either for bad arguments. */
  public static Throwable failureOf(Supplier<Future<?>> call) {
    Future<?> future;
    try {
      future = call.get();
    } catch (RuntimeException e) {
      return e;
    }
    return awaitFailure(future);
  }

  /** Null when the future succeeds, else its failure. */
  public static Throwable outcome(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(PATIENCE_MS, TimeUnit.MILLISECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Waits until a condition holds, checking now and then; fails after {@link #PATIENCE_MS}. */
  public static void eventually(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      try {
        TimeUnit.MILLISECONDS.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
