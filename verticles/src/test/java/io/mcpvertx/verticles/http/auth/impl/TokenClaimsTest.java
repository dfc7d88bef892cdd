package io.mcpvertx.verticles.http.auth.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.Principal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenClaimsTest {

  private static final String ISSUER = "https://as.example.test";
  private static final String RESOURCE = "https://mcp.example.test/mcp";
  private static final long NOW = 1_800_000_000L;
  private final TokenClaims claims = new TokenClaims(ISSUER, RESOURCE, 30);

  private static JsonObject valid() {
    return new JsonObject().put("iss", ISSUER).put("sub", "alice").put("aud", RESOURCE).put("exp", NOW + 60)
        .put("iat", NOW).put("scope", "a b");
  }

  private void assertRefused(JsonObject token, String why) {
    InvalidTokenException e = assertThrows(InvalidTokenException.class, () -> claims.ofJwt(token, NOW));
    assertEquals("invalid_token", e.error());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void yieldsThePrincipalOfAValidToken() {
    Principal principal = claims.ofJwt(valid(), NOW);
    assertEquals(new Principal(ISSUER, "alice", Set.of("a", "b")), principal);
    assertEquals(ISSUER + "#alice", principal.key());
  }

  @Test
  void acceptsTheResourceAmongSeveralAudiencesAndInCanonicalVariants() {
    claims.ofJwt(valid().put("aud", new JsonArray().add("other").add(RESOURCE)), NOW);
    claims.ofJwt(valid().put("aud", "HTTPS://MCP.Example.Test/mcp"), NOW);
    new TokenClaims(ISSUER, "https://mcp.example.test", 0).ofJwt(valid().put("aud", "https://mcp.example.test/"),
        NOW);
    assertRefused(valid().put("aud", "https://mcp.example.test/MCP"), "another resource");
  }

  @Test
  void refusesWhatTheLibraryLetsThrough() {
    assertRefused(valid().put("iss", "https://evil.example.test"), "another authorization server");
    assertRefused(valid().put("aud", "https://other.example.test/mcp"), "another resource");
    JsonObject noAudience = valid();
    noAudience.remove("aud");
    assertRefused(noAudience, "no audience");
    assertRefused(valid().put("aud", new JsonArray()), "no audience");
    JsonObject noExpiry = valid();
    noExpiry.remove("exp");
    assertRefused(noExpiry, "no expiry");
    JsonObject noSubject = valid();
    noSubject.remove("sub");
    assertRefused(noSubject, "no subject");
    assertRefused(valid().put("exp", "tomorrow"), "not a number");
  }

  @Test
  void allowsTheClockSkewAndNoMore() {
    claims.ofJwt(valid().put("exp", NOW - 29), NOW);
    assertRefused(valid().put("exp", NOW - 30), "expired");
    claims.ofJwt(valid().put("nbf", NOW + 30), NOW);
    assertRefused(valid().put("nbf", NOW + 31), "not valid yet");
    assertRefused(valid().put("iat", NOW + 31), "in the future");
  }

  @Test
  void readsScopesFromScopeOrScp() {
    assertEquals(Set.of("a", "b"), TokenClaims.scopes(new JsonObject().put("scope", " a  b ")));
    assertEquals(Set.of("x", "y"), TokenClaims.scopes(new JsonObject().put("scp", new JsonArray().add("x").add("y"))));
    assertEquals(Set.of(), TokenClaims.scopes(new JsonObject()));
  }

  @Test
  void checksIntrospectionResponsesTheSameWay() {
    JsonObject active = valid().put("active", true);
    assertEquals("alice", claims.ofIntrospection(active, NOW).subject());
    JsonObject withoutIssuer = active.copy();
    withoutIssuer.remove("iss");
    assertEquals(ISSUER, claims.ofIntrospection(withoutIssuer, NOW).issuer());
    for (Object inactive : new Object[] {false, "true", null}) {
      InvalidTokenException e = assertThrows(InvalidTokenException.class,
          () -> claims.ofIntrospection(valid().put("active", inactive), NOW));
      assertTrue(e.getMessage().contains("not active"));
    }
    assertThrows(InvalidTokenException.class, () -> claims.ofIntrospection(active.copy().put("aud", "x"), NOW));
  }
}
