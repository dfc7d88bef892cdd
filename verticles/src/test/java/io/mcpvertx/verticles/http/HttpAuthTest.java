package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.verticles.http.auth.AuthMode;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The endpoint as an OAuth protected resource in JWT mode, against a real authorization server in the JVM: token
 * checks (expiry, issuer, audience, signature, algorithm, key rotation), challenges, scopes and step-up, sessions
 * bound to their principal, metadata documents.
 */
@ExtendWith(VertxExtension.class)
class HttpAuthTest {

  static final String RESOURCE = "https://mcp.example.test/mcp";
  static final String METADATA_URL = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";
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

  static McpAuthOptions jwtOptions(String issuer) {
    return new McpAuthOptions().setMode(AuthMode.JWT).setIssuer(issuer).setResource(RESOURCE)
        .setRequiredScopes(List.of("mcp:basic"))
        .addMethodScopes("tools/call", List.of("mcp:tools"))
        .addToolScopes("admin", List.of("mcp:admin"));
  }

  /** An endpoint with auth, serving the test tools plus {@code whoami} and {@code admin}. */
  static Future<HttpTestServer> start(Vertx vertx, McpAuthOptions auth) {
    return HttpTestServer.start(vertx, new McpHttpServerOptions().setAuth(auth)).map(server -> {
      server.mcp.tool(Tool.builder("whoami").description("Names the caller").build(), (args, ctx) ->
          Future.succeededFuture(ToolResult.text(ctx.principal()
              .map(p -> p.key() + " " + String.join(" ", new TreeSet<>(p.scopes()))).orElse("anonymous"))));
      server.mcp.tool(Tool.builder("admin").description("Needs mcp:admin").build(), (args, ctx) ->
          Future.succeededFuture(ToolResult.text("administered")));
      return server;
    });
  }

  private static Future<HttpTestServer> start(Vertx vertx) {
    return start(vertx, jwtOptions(authorizationServer.issuer()));
  }

  private static String token(String subject) {
    return authorizationServer.token(subject, RESOURCE, ALL, 300);
  }

  private static String text(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  /** A token's challenge parameters, asserting the status and the JSON-RPC error body. */
  private static String challenge(HttpReply reply, int status) {
    assertEquals(status, reply.status(), reply::toString);
    assertEquals("application/json", reply.contentType(), reply::toString);
    assertTrue(reply.json().containsKey("error"), reply::toString);
    String challenge = reply.header("WWW-Authenticate");
    assertNotNull(challenge, reply::toString);
    assertTrue(challenge.startsWith("Bearer "), challenge);
    assertTrue(challenge.contains("resource_metadata=\"" + METADATA_URL + "\""), challenge);
    return challenge;
  }

  private static void assertRefused(HttpReply reply, String why) {
    String challenge = challenge(reply, 401);
    assertTrue(challenge.contains("error=\"invalid_token\""), challenge);
    assertTrue(challenge.contains(why), challenge);
    assertTrue(assertRejected(reply, 401).getString("message").contains(why), reply::toString);
  }

  private static Future<HttpReply> initializeWith(HttpTestServer server, String token) {
    return server.client().withBearer(token).initializeOnly(V11);
  }

  @Test
  void acceptsAValidTokenAndHandsItsPrincipalToTheHandlers(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> server.client().withBearer(token("alice")).initialize(V11))
        .compose(session -> session.call("tools/call", new JsonObject().put("name", "whoami")))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          assertEquals(authorizationServer.issuer() + "#alice mcp:basic mcp:tools", text(result));
          test.completeNow();
        })));
  }

  @Test
  void challengesARequestWithoutTokenWithTheMetadataAndTheScopeHint(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> server.client().initializeOnly(V11))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals("Bearer resource_metadata=\"" + METADATA_URL + "\", scope=\"mcp:basic\"",
              challenge(reply, 401));
          assertRejected(reply, 401);
          test.completeNow();
        })));
  }

  @Test
  void refusesAnExpiredToken(Vertx vertx, VertxTestContext test) {
    String expired = authorizationServer.token("alice", RESOURCE, ALL, -3600);
    start(vertx).compose(server -> initializeWith(server, expired))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRefused(reply, "expired");
          test.completeNow();
        })));
  }

  @Test
  void refusesATokenOfAnotherIssuer(Vertx vertx, VertxTestContext test) {
    String foreign = authorizationServer.signedToken("http://localhost:1/mcp",
        Map.of("sub", "alice", "aud", RESOURCE, "scope", ALL));
    start(vertx).compose(server -> initializeWith(server, foreign))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRefused(reply, "another authorization server");
          test.completeNow();
        })));
  }

  @Test
  void refusesATokenForAnotherAudience(Vertx vertx, VertxTestContext test) {
    String elsewhere = authorizationServer.token("alice", "https://other.example.test/mcp", ALL, 300);
    start(vertx).compose(server -> initializeWith(server, elsewhere))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRefused(reply, "another resource");
          test.completeNow();
        })));
  }

  @Test
  void refusesATokenWithoutAudience(Vertx vertx, VertxTestContext test) {
    String unbound = authorizationServer.signedToken(authorizationServer.issuer(), Map.of("sub", "alice",
        "scope", ALL));
    assertFalse(payload(unbound).containsKey("aud"), unbound);
    start(vertx).compose(server -> initializeWith(server, unbound))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRefused(reply, "no audience");
          test.completeNow();
        })));
  }

  @Test
  void refusesABadSignature(Vertx vertx, VertxTestContext test) {
    String[] alice = token("alice").split("\\.");
    String[] mallory = authorizationServer.token("mallory", RESOURCE, ALL + " mcp:admin", 300).split("\\.");
    // Mallory's claims under Alice's signature.
    String forged = alice[0] + "." + mallory[1] + "." + alice[2];
    start(vertx).compose(server -> initializeWith(server, forged))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertRefused(reply, "signature");
          test.completeNow();
        })));
  }

  @Test
  void refusesUnsignedTokens(Vertx vertx, VertxTestContext test) {
    String header = base64Url("{\"alg\":\"none\",\"typ\":\"JWT\"}");
    String claims = token("alice").split("\\.")[1];
    String signature = token("alice").split("\\.")[2];
    start(vertx).compose(server -> Future.all(initializeWith(server, header + "." + claims + "."),
            initializeWith(server, header + "." + claims + "." + signature)))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertRefused(replies.resultAt(0), "not a signed JWT");
          assertRefused(replies.resultAt(1), "algorithm none is not accepted");
          test.completeNow();
        })));
  }

  @Test
  void fetchesTheKeysAgainForAnUnknownKeyIdAndTrustsOnlyTheRotatedOnes(Vertx vertx, VertxTestContext test) {
    McpAuthOptions auth = jwtOptions(authorizationServer.issuer()).setJwksRefreshMinIntervalMs(0);
    start(vertx, auth).compose(server -> {
      String before = token("alice");
      return initializeWith(server, before).compose(first -> {
        test.verify(() -> assertEquals(200, first.status(), first::toString));
        authorizationServer.rotate("k2-" + System.nanoTime());
        // One after the other: the old key is trusted until the new JWKS is in.
        return initializeWith(server, token("alice")).compose(rotated -> initializeWith(server, before)
            .map(old -> Future.all(Future.succeededFuture(rotated), Future.succeededFuture(old))))
            .compose(both -> both);
      });
    }).onComplete(test.succeeding(after -> test.verify(() -> {
      HttpReply rotated = after.resultAt(0);
      assertEquals(200, rotated.status(), rotated::toString);
      assertRefused(after.resultAt(1), "unknown key");
      test.completeNow();
    })));
  }

  @Test
  void fetchesTheKeysAtMostOncePerInterval(Vertx vertx, VertxTestContext test) {
    McpAuthOptions auth = jwtOptions(authorizationServer.issuer()).setJwksRefreshMinIntervalMs(60_000);
    start(vertx, auth).compose(server -> {
      authorizationServer.rotate("k3-" + System.nanoTime());
      return initializeWith(server, token("alice"));
    }).onComplete(test.succeeding(reply -> test.verify(() -> {
      assertRefused(reply, "unknown key");
      test.completeNow();
    })));
  }

  @Test
  void asksForTheMissingScopeWith403(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> {
      StreamableHttp basic = server.client().withBearer(authorizationServer.token("bob", RESOURCE,
          "mcp:basic", 300));
      StreamableHttp tools = server.client().withBearer(token("alice"));
      return Future.all(
          basic.initialize(V11).compose(session -> Future.all(
              session.post(session.request("tools/list", null)),
              session.post(session.toolCall("echo", new JsonObject().put("text", "x"), null)))),
          tools.initialize(V11).compose(session -> session.post(session.toolCall("admin", new JsonObject(),
              null))));
    }).onComplete(test.succeeding(all -> test.verify(() -> {
      io.vertx.core.CompositeFuture basic = all.resultAt(0);
      HttpReply list = basic.resultAt(0);
      assertEquals(200, list.status(), list::toString);
      HttpReply call = basic.resultAt(1);
      String challenge = challenge(call, 403);
      assertTrue(challenge.startsWith("Bearer error=\"insufficient_scope\", scope=\"mcp:basic mcp:tools\""),
          challenge);
      assertTrue(call.json().getJsonObject("error").getString("message").contains("mcp:tools"), call::toString);
      assertNotNull(call.json().getValue("id"), "the refused request's id is named");
      HttpReply admin = all.resultAt(1);
      String adminChallenge = challenge(admin, 403);
      assertTrue(adminChallenge.contains("scope=\"mcp:basic mcp:tools mcp:admin\""), adminChallenge);
      test.completeNow();
    })));
  }

  @Test
  void refusesEveryMethodToATokenWithoutTheRequiredScope(Vertx vertx, VertxTestContext test) {
    String none = authorizationServer.token("carol", RESOURCE, "unrelated", 300);
    start(vertx).compose(server -> {
      StreamableHttp client = server.client().withBearer(none);
      return Future.all(client.initializeOnly(V11),
          client.send(HttpMethod.GET, MultiMap.caseInsensitiveMultiMap().add("Accept", "text/event-stream")
              .add("Mcp-Session-Id", "x"), null));
    }).onComplete(test.succeeding(replies -> test.verify(() -> {
      for (int i = 0; i < 2; i++) {
        String challenge = challenge(replies.resultAt(i), 403);
        assertTrue(challenge.contains("error=\"insufficient_scope\", scope=\"mcp:basic\""), challenge);
      }
      test.completeNow();
    })));
  }

  @Test
  void authenticatesGetAndDelete(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> server.client().withBearer(token("alice")).initialize(V11)
        .compose(session -> {
          StreamableHttp anonymous = server.client();
          return Future.all(
              anonymous.send(HttpMethod.GET, session.getHeaders(), null),
              anonymous.send(HttpMethod.DELETE, session.getHeaders(), null))
              .map(replies -> {
                test.verify(() -> assertEquals(1, server.http.sessionCount()));
                return replies;
              });
        }))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          challenge(replies.resultAt(0), 401);
          challenge(replies.resultAt(1), 401);
          test.completeNow();
        })));
  }

  @Test
  void bindsSessionsToTheirPrincipal(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> server.client().withBearer(token("alice")).initialize(V11)
        .compose(session -> {
          StreamableHttp bob = server.client().withBearer(token("bob"));
          StreamableHttp aliceAgain = server.client().withBearer(token("alice"));
          return Future.all(
              bob.post(session.postHeaders(), session.request("ping", null)),
              bob.send(HttpMethod.GET, session.getHeaders(), null),
              bob.send(HttpMethod.DELETE, session.getHeaders(), null))
              .compose(refused -> aliceAgain.post(session.postHeaders(), session.request("ping", null))
                  .compose(ping -> aliceAgain.send(HttpMethod.DELETE, session.getHeaders(), null)
                      .map(deleted -> {
                        test.verify(() -> {
                          for (int i = 0; i < 3; i++) {
                            assertRejected(refused.resultAt(i), 404);
                          }
                          assertEquals(200, ping.status(), "a refreshed token of the owner works: " + ping);
                          assertEquals(200, deleted.status(), deleted::toString);
                          assertEquals(0, server.http.sessionCount());
                        });
                        return deleted;
                      })));
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void servesTheStatelessGenerationWithThePrincipal(Vertx vertx, VertxTestContext test) {
    JsonObject meta = new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "modern").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
    JsonObject call = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
        .put("params", new JsonObject().put("name", "whoami").put("_meta", meta));
    MultiMap headers = StreamableHttp.postHeaders().add("MCP-Protocol-Version", "2026-07-28")
        .add("Mcp-Method", "tools/call").add("Mcp-Name", "whoami");
    start(vertx).compose(server -> Future.all(server.client().withBearer(token("dave")).post(headers, call),
            server.client().post(headers, call)))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          HttpReply served = replies.resultAt(0);
          assertEquals(200, served.status(), served::toString);
          assertEquals(authorizationServer.issuer() + "#dave mcp:basic mcp:tools",
              text(served.messages().get(0).getJsonObject("result")));
          challenge(replies.resultAt(1), 401);
          test.completeNow();
        })));
  }

  @Test
  void refusesMalformedCredentialsWith400(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> {
      StreamableHttp client = server.client();
      JsonObject initialize = StreamableHttp.initializeRequest(V11);
      return Future.all(
          client.post(StreamableHttp.postHeaders().add("Authorization", "Bearer not a token"), initialize),
          client.post(StreamableHttp.postHeaders().add("Authorization", "Bearer " + token("a"))
              .add("Authorization", "Bearer " + token("b")), initialize),
          client.post(StreamableHttp.postHeaders().add("Authorization", "Basic YWxpY2U6c2VjcmV0"),
              initialize));
    }).onComplete(test.succeeding(replies -> test.verify(() -> {
      assertTrue(challenge(replies.resultAt(0), 400).contains("error=\"invalid_request\""));
      assertTrue(challenge(replies.resultAt(1), 400).contains("error=\"invalid_request\""));
      String otherScheme = challenge(replies.resultAt(2), 401);
      assertFalse(otherScheme.contains("error="), otherScheme);
      test.completeNow();
    })));
  }

  @Test
  void servesTheProtectedResourceMetadataAtBothWellKnownLocations(Vertx vertx, VertxTestContext test) {
    start(vertx).compose(server -> {
      StreamableHttp client = server.client();
      return Future.all(get(client, server, "/.well-known/oauth-protected-resource/mcp"),
          get(client, server, "/.well-known/oauth-protected-resource"),
          get(client, server, "/.well-known/oauth-authorization-server"));
    }).onComplete(test.succeeding(replies -> test.verify(() -> {
      for (int i = 0; i < 2; i++) {
        HttpReply reply = replies.resultAt(i);
        assertEquals(200, reply.status(), reply::toString);
        JsonObject metadata = reply.json();
        assertEquals(RESOURCE, metadata.getString("resource"));
        assertEquals(List.of(authorizationServer.issuer()), metadata.getJsonArray("authorization_servers").getList());
        assertEquals(List.of("mcp:basic"), metadata.getJsonArray("scopes_supported").getList());
        assertEquals(List.of("header"), metadata.getJsonArray("bearer_methods_supported").getList());
      }
      assertEquals(404, ((HttpReply) replies.resultAt(2)).status(), "no mirror unless asked for");
      test.completeNow();
    })));
  }

  @Test
  void mirrorsTheAuthorizationServerMetadataFor20250326Clients(Vertx vertx, VertxTestContext test) {
    McpAuthOptions auth = jwtOptions(authorizationServer.issuer()).setServeAuthorizationServerMetadata(true);
    start(vertx, auth).compose(server -> get(server.client(), server, "/.well-known/oauth-authorization-server"))
        .onComplete(test.succeeding(reply -> test.verify(() -> {
          assertEquals(200, reply.status(), reply::toString);
          JsonObject metadata = reply.json();
          assertEquals(authorizationServer.issuer(), metadata.getString("issuer"));
          assertTrue(metadata.getString("token_endpoint").startsWith(authorizationServer.issuer()), metadata::encode);
          assertNotNull(metadata.getString("authorization_endpoint"), metadata::encode);
          test.completeNow();
        })));
  }

  @Test
  void doesNotStartWhenTheAuthorizationServerCannotBeReached(Vertx vertx, VertxTestContext test) {
    McpAuthOptions auth = jwtOptions("http://127.0.0.1:1/nowhere").setHttpTimeoutMs(2_000);
    start(vertx, auth).onComplete(test.failing(failure -> test.verify(() -> {
      assertTrue(failure.getMessage().contains("no metadata for issuer"), failure::toString);
      test.completeNow();
    })));
  }

  static Future<HttpReply> get(StreamableHttp client, HttpTestServer server, String path) {
    return client.send(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(server.port())
        .setURI(path), MultiMap.caseInsensitiveMultiMap(), null);
  }

  private static String base64Url(String json) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject payload(String token) {
    return new JsonObject(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
  }
}
