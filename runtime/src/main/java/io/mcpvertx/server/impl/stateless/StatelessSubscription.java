package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.spi.tasks.TaskChange;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One {@code subscriptions/listen} stream: acknowledged first, then only the notifications the client opted in
 * to, each tagged with the subscription id (the listen request's id).
 *
 * <p>Registry changes arrive on the registering thread; they are moved to the stream's context before anything is
 * sent, and the sink is only used there.
 */
final class StatelessSubscription implements StatelessServer.Subscription, FeatureRegistry.Listener {

  private final Context context;
  private final MessageSink sink;
  private final Object subscriptionId;
  private final boolean tools;
  private final boolean prompts;
  private final boolean resources;
  private final Set<String> resourceUris = new HashSet<>();
  private final List<Runnable> taskWatches = new ArrayList<>();
  private Runnable unregister;
  private boolean closed;

  /**
   * Honors what the client asked for among what the server offers now, as {@code server/discover} declares it:
   * no prompts, no prompt list changes (and so on).
   */
  private StatelessSubscription(Context context, MessageSink sink, Object subscriptionId, JsonObject filter,
      FeatureRegistry.Snapshot offered) {
    this.context = context;
    this.sink = sink;
    this.subscriptionId = subscriptionId;
    this.tools = !offered.tools().isEmpty() && Boolean.TRUE.equals(filter.getValue("toolsListChanged"));
    this.prompts = !offered.prompts().isEmpty() && Boolean.TRUE.equals(filter.getValue("promptsListChanged"));
    this.resources = offered.hasResources() && Boolean.TRUE.equals(filter.getValue("resourcesListChanged"));
    if (offered.hasResources() && filter.getValue("resourceSubscriptions") instanceof JsonArray uris) {
      uris.forEach(uri -> {
        if (uri instanceof String s) {
          resourceUris.add(s);
        }
      });
    }
  }

  /** At most this many task ids per stream; more are not agreed to (the acknowledgement lists those that are). */
  static final int MAX_TASK_IDS = 100;

  static StatelessSubscription open(FeatureRegistry registry, ExtensionTasks tasks, Principal principal,
      JsonRpcRequest request, MessageSink sink) {
    Context context = Vertx.currentContext();
    JsonObject filter = request.paramsOrEmpty().getValue("notifications") instanceof JsonObject f ? f
        : new JsonObject();
    StatelessSubscription subscription = new StatelessSubscription(context, sink, request.id().wireValue(), filter,
        registry.snapshot());
    JsonObject honored = new JsonObject();
    if (subscription.tools) {
      honored.put("toolsListChanged", true);
    }
    if (subscription.prompts) {
      honored.put("promptsListChanged", true);
    }
    if (subscription.resources) {
      honored.put("resourcesListChanged", true);
    }
    if (!subscription.resourceUris.isEmpty()) {
      honored.put("resourceSubscriptions", new JsonArray(new ArrayList<>(subscription.resourceUris)));
    }
    List<String> taskIds = new ArrayList<>();
    if (filter.getValue("taskIds") instanceof JsonArray ids) {
      // The engine refused this before serving it if the client did not declare the extension.
      for (Object id : ids) {
        if (id instanceof String taskId && !taskId.isEmpty() && taskIds.size() < MAX_TASK_IDS
            && !taskIds.contains(taskId)) {
          taskIds.add(taskId);
        }
      }
      honored.put("taskIds", new JsonArray(new ArrayList<>(taskIds)));
    }
    String owner = ExtensionTasks.owner(principal);
    for (String taskId : taskIds) {
      // Agreed to whoever owns it, so the acknowledgement says nothing about other callers' tasks; only the
      // owner's tasks are ever sent. Watched before anything is sent: over the waiter limit the subscription is
      // refused with nothing acknowledged and no slot kept.
      try {
        subscription.taskWatches.add(tasks.engine().watch(taskId, change -> {
          if (change.kind() != TaskChange.Kind.INPUT_RESPONDED) {
            subscription.sendTask(tasks, taskId, owner);
          }
        }));
      } catch (RuntimeException e) {
        subscription.taskWatches.forEach(Runnable::run);
        throw e;
      }
    }
    sink.send(StatelessEngine.tagged("notifications/subscriptions/acknowledged",
        new JsonObject().put("notifications", honored), subscription.subscriptionId));
    subscription.unregister = registry.addListener(subscription);
    taskIds.forEach(taskId -> subscription.sendTask(tasks, taskId, owner));
    return subscription;
  }

  @Override
  public void close() {
    context.runOnContext(v -> {
      if (!closed) {
        closed = true;
        unregister.run();
        taskWatches.forEach(Runnable::run);
      }
    });
  }

  @Override
  public void changed(FeatureRegistry.Change change) {
    boolean wanted = switch (change) {
      case TOOLS -> tools;
      case PROMPTS -> prompts;
      case RESOURCES -> resources;
    };
    if (wanted) {
      String kind = change.name().toLowerCase(Locale.ROOT);
      send(StatelessEngine.tagged("notifications/" + kind + "/list_changed", null, subscriptionId));
    }
  }

  @Override
  public void resourceUpdated(String uri) {
    if (resourceUris.contains(uri)) {
      send(StatelessEngine.tagged("notifications/resources/updated", new JsonObject().put("uri", uri),
          subscriptionId));
    }
  }

  /** The task's current state, as {@code notifications/tasks}, when the caller owns it. */
  private void sendTask(ExtensionTasks tasks, String taskId, String owner) {
    tasks.detailedFor(taskId, owner).onSuccess(detailed -> {
      if (detailed != null) {
        send(StatelessEngine.tagged("notifications/tasks", detailed, subscriptionId));
      }
    });
  }

  private void send(JsonRpcNotification notification) {
    context.runOnContext(v -> {
      if (!closed) {
        sink.send(notification);
      }
    });
  }
}
