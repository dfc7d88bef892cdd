package io.mcpvertx.spi.sessions;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What another instance needs to go on serving a 2025-generation session: the negotiated revision, who the client
 * is and what it declared, its log level and resource subscriptions, and the principal it belongs to.
 *
 * @param state the session's lifecycle state name ({@code AWAITING_INITIALIZED}, {@code OPERATING})
 * @param protocolVersion the negotiated revision, or null before initialize
 * @param client the client's {@code clientInfo} and {@code capabilities} as {@code {name, version, capabilities}}
 * @param logLevel the level set with {@code logging/setLevel}, or null
 * @param subscriptions the resource URIs the client subscribed to
 * @param principal the principal the session belongs to ({@code Principal.toJson()}), or null without authorization
 * @param createdAt epoch milliseconds
 */
public record SessionRecord(String sessionId, String state, String protocolVersion, JsonObject client,
    String logLevel, Set<String> subscriptions, JsonObject principal, long createdAt) {

  public SessionRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(state, "state");
    client = client == null ? new JsonObject() : client;
    subscriptions = subscriptions == null ? Set.of() : Set.copyOf(subscriptions);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("sessionId", sessionId).put("state", state).put("client", client)
        .put("subscriptions", new JsonArray(subscriptions.stream().sorted().toList())).put("createdAt", createdAt);
    if (protocolVersion != null) {
      json.put("protocolVersion", protocolVersion);
    }
    if (logLevel != null) {
      json.put("logLevel", logLevel);
    }
    if (principal != null) {
      json.put("principal", principal);
    }
    return json;
  }

  public static SessionRecord fromJson(JsonObject json) {
    Set<String> subscriptions = new LinkedHashSet<>();
    JsonArray uris = json.getJsonArray("subscriptions");
    if (uris != null) {
      uris.forEach(uri -> subscriptions.add(String.valueOf(uri)));
    }
    return new SessionRecord(json.getString("sessionId"), json.getString("state"), json.getString("protocolVersion"),
        json.getJsonObject("client"), json.getString("logLevel"), subscriptions, json.getJsonObject("principal"),
        json.getLong("createdAt", 0L));
  }
}
