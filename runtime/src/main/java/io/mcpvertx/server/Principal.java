package io.mcpvertx.server;

import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.Set;

/**
 * The authenticated caller: issuer plus subject identify it; scopes say what it may do. Sessions and tasks are
 * bound to {@link #key()}, never to the bytes of a token.
 */
public record Principal(String issuer, String subject, Set<String> scopes) {

  public Principal {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(subject, "subject");
    scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
  }

  /** A stable identity for ownership checks, the same across token refreshes. */
  public String key() {
    return issuer + "#" + subject;
  }

  public JsonObject toJson() {
    return new JsonObject().put("issuer", issuer).put("subject", subject)
        .put("scopes", new io.vertx.core.json.JsonArray(java.util.List.copyOf(scopes)));
  }

  public static Principal fromJson(JsonObject json) {
    java.util.Set<String> scopes = new java.util.HashSet<>();
    json.getJsonArray("scopes", new io.vertx.core.json.JsonArray()).forEach(s -> scopes.add(String.valueOf(s)));
    return new Principal(json.getString("issuer"), json.getString("subject"), scopes);
  }
}
