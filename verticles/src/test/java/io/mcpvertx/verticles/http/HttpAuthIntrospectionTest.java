package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.verticles.http.auth.AuthMode;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Introspection mode: the endpoint treats every token as opaque and asks the authorization server's RFC 7662
 * endpoint (found by discovery) about it, then checks the answer itself: active, issuer, audience, subject.
 */
@ExtendWith(VertxExtension.class)
class HttpAuthIntrospectionTest {

  private static final String V11 = "2025-11-25";
  private static final String ALL = "mcp:basic mcp:tools";

  private static MockAuthorizationServer authorizationServer;

  @BeforeAll
  static void startAuthorizationServer() {
    authorizationServer = new MockAuthorizationServer();
  }

  @AfterAll
  static void stopAuthorizationServer() {
    authorizationServer.close();
  }

  private static McpAuthOptions introspection() {
    return HttpAuthTest.jwtOptions(authorizationServer.issuer()).setMode(AuthMode.INTROSPECTION)
        .setClientId("mcp-server").setClientSecret("mcp-server-secret");
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void acceptsATokenTheAuthorizationServerVouchesFor(Vertx vertx, VertxTestContext test) {
    String token = authorizationServer.token("erin", HttpAuthTest.RESOURCE, ALL, 300);
    HttpAuthTest.start(vertx, introspection())
        .compose(server -> server.client().withBearer(token).initialize(V11))
        .compose(session -> session.call("tools/call", new JsonObject().put("name", "whoami")))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals(authorizationServer.issuer() + "#erin mcp:basic mcp:tools", text(result));
          test.completeNow();
        })));
  }

  @Test
  void refusesATokenIntrospectedForAnotherAudience(Vertx vertx, VertxTestContext test) {
    String elsewhere = authorizationServer.token("erin", "https://other.example.test/mcp", ALL, 300);
    HttpAuthTest.start(vertx, introspection())
        .compose(server -> server.client().withBearer(elsewhere).initializeOnly(V11))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals(401, reply.status(), reply::toString);
          String challenge = reply.header("WWW-Authenticate");
          assertTrue(challenge.contains("error=\"invalid_token\""), challenge);
          assertTrue(challenge.contains("another resource"), challenge);
          test.completeNow();
        })));
  }

  @Test
  void refusesAnOpaqueTokenTheAuthorizationServerDoesNotKnow(Vertx vertx, VertxTestContext test) {
    HttpAuthTest.start(vertx, introspection())
        .compose(server -> server.client().withBearer("b3BhcXVlLXRva2VuLW5vYm9keS1pc3N1ZWQ").initializeOnly(V11))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRejected(reply, 401);
          assertTrue(reply.header("WWW-Authenticate").contains("not active"), reply::toString);
          test.completeNow();
        })));
  }

  @Test
  void answers503WhenTheIntrospectionEndpointCannotBeReached(Vertx vertx, VertxTestContext test) {
    McpAuthOptions unreachable = introspection().setIntrospectionUrl("http://127.0.0.1:1/introspect")
        .setHttpTimeoutMs(2_000);
    String token = authorizationServer.token("erin", HttpAuthTest.RESOURCE, ALL, 300);
    HttpAuthTest.start(vertx, unreachable)
        .compose(server -> server.client().withBearer(token).initializeOnly(V11))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRejected(reply, 503);
          assertEquals("5", reply.header("Retry-After"));
          assertNull(reply.header("WWW-Authenticate"), "the token was not refused: the client keeps it");
          test.completeNow();
        })));
  }

  @Test
  void needsTheResourceServersOwnCredentials(Vertx vertx, VertxTestContext test) {
    McpAuthOptions anonymous = introspection().setClientSecret(null);
    Future.succeededFuture().compose(v -> HttpAuthTest.start(vertx, anonymous))
        .onComplete(test.failing(failure -> test.verify(() -> {
          assertTrue(failure.getMessage().contains("clientId and clientSecret"), failure::toString);
          test.completeNow();
        })));
  }
}
