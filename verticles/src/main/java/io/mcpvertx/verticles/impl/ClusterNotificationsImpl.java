package io.mcpvertx.verticles.impl;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.ClusterNotifications;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Objects;

/**
 * Publishes a server's resource updates on {@link #RESOURCE_UPDATED} as {@code {uri, origin}} and delivers the
 * others' to it. {@code origin} is this relay's random id: the relay skips its own messages, whose update was
 * already delivered locally by {@link McpServer#resourceUpdated}.
 */
public final class ClusterNotificationsImpl implements ClusterNotifications {

  public static final String RESOURCE_UPDATED = "mcp.notifications.resource-updated";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterNotificationsImpl.class);

  private final McpServer server;
  private final String origin = RemoteProtocol.randomId();
  private MessageConsumer<Object> updates;

  private ClusterNotificationsImpl(McpServer server) {
    this.server = server;
  }

  public static Future<ClusterNotifications> attach(Vertx vertx, McpServer server) {
    ClusterNotificationsImpl relay = new ClusterNotificationsImpl(Objects.requireNonNull(server, "server"));
    relay.updates = vertx.eventBus().consumer(RESOURCE_UPDATED, relay::onUpdate);
    return relay.updates.completion().map(v -> {
      server.resourceUpdateRelay(uri -> {
        try {
          publish(vertx, uri, relay.origin);
        } catch (IllegalArgumentException e) {
          // Delivered here already; the caller of resourceUpdated should not fail for what the relay cannot carry.
          LOG.warn("Did not relay a resource update to other instances: " + e.getMessage());
        }
      });
      return relay;
    });
  }

  /** Publishes an update; {@code origin} is null when no server sent it. */
  public static void publish(Vertx vertx, String uri, String origin) {
    if (uri == null || uri.isEmpty() || uri.length() > MAX_URI_LENGTH) {
      throw new IllegalArgumentException("uri must be a non-empty string of at most " + MAX_URI_LENGTH
          + " characters");
    }
    JsonObject update = new JsonObject().put("uri", uri);
    if (origin != null) {
      update.put("origin", origin);
    }
    vertx.eventBus().publish(RESOURCE_UPDATED, update);
  }

  @Override
  public Future<Void> close() {
    server.resourceUpdateRelay(null);
    return updates.unregister();
  }

  private void onUpdate(Message<Object> message) {
    if (!(message.body() instanceof JsonObject update)) {
      LOG.warn("Ignored a resource update that is not a JSON object");
      return;
    }
    if (origin.equals(update.getValue("origin"))) {
      return;
    }
    if (!(update.getValue("uri") instanceof String uri) || uri.isEmpty() || uri.length() > MAX_URI_LENGTH) {
      LOG.warn("Ignored a malformed resource update from the event bus");
      return;
    }
    server.resourceUpdatedElsewhere(uri);
  }
}
