package io.mcpvertx.server.client;

import io.vertx.core.json.JsonObject;

/** A filesystem root the client exposes ({@code roots/list}). */
public record Root(String uri, String name) {

  public static Root fromJson(JsonObject json) {
    return new Root(json.getString("uri"), json.getString("name"));
  }
}
