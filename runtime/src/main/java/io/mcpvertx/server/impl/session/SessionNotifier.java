package io.mcpvertx.server.impl.session;

import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;

/**
 * Turns registry changes into one session's {@code notifications/.../list_changed} (for what the session was
 * offered with {@code listChanged}) and {@code notifications/resources/updated} (for the URIs it subscribed to).
 *
 * <p>Changes arrive on the registering thread and are moved to the session's context; the subscriptions are
 * touched only there.
 */
final class SessionNotifier implements FeatureRegistry.Listener {

  private final SessionEngine session;
  private final Set<String> subscriptions = new HashSet<>();
  private final Runnable unregister;

  SessionNotifier(SessionEngine session, FeatureRegistry registry) {
    this.session = session;
    this.unregister = registry.addListener(this);
  }

  /** {@code resources/subscribe} and {@code resources/unsubscribe}. */
  Future<JsonObject> subscribe(JsonObject params, boolean add) {
    if (!(params.getValue("uri") instanceof String uri) || uri.isEmpty()) {
      throw McpException.invalidParams("Invalid params: \"uri\" must be a non-empty string");
    }
    if (add) {
      subscriptions.add(uri);
    } else {
      subscriptions.remove(uri);
    }
    return Future.succeededFuture(new JsonObject());
  }

  /** The subscribed URIs, for the session's stored record. */
  Set<String> subscriptions() {
    return Set.copyOf(subscriptions);
  }

  /** Takes over the subscriptions of a restored session. */
  void restore(Set<String> uris) {
    subscriptions.addAll(uris);
  }

  /** The session closed: no more notifications, and the registry forgets it. */
  void close() {
    unregister.run();
    subscriptions.clear();
  }

  @Override
  public void changed(FeatureRegistry.Change change) {
    session.onContext(() -> {
      if (session.state() != SessionState.OPERATING) {
        return;
      }
      String capability = switch (change) {
        case TOOLS -> "tools";
        case RESOURCES -> "resources";
        case PROMPTS -> "prompts";
      };
      JsonObject declared = session.advertised().getJsonObject(capability);
      if (declared != null && declared.getBoolean("listChanged", false)) {
        session.defaultSink().send(new JsonRpcNotification("notifications/" + capability + "/list_changed", null));
      }
    });
  }

  @Override
  public void resourceUpdated(String uri) {
    session.onContext(() -> {
      if (session.state() != SessionState.CLOSED && subscriptions.contains(uri)) {
        session.defaultSink().send(new JsonRpcNotification("notifications/resources/updated",
            new JsonObject().put("uri", uri)));
      }
    });
  }
}
