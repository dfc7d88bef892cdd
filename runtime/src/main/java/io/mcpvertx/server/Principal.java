package io.mcpvertx.server;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
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
        .put("scopes", new JsonArray(List.copyOf(scopes)));
  }

  public static Principal fromJson(JsonObject json) {
    Set<String> scopes = new HashSet<>();
    json.getJsonArray("scopes", new JsonArray()).forEach(s -> scopes.add(String.valueOf(s)));
    return new Principal(json.getString("issuer"), json.getString("subject"), scopes);
  }
}
