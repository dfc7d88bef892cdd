package io.mcpvertx.server.stateless;

import static io.mcpvertx.testing.StatelessTestClient.META_CAPABILITIES;
import static io.mcpvertx.testing.StatelessTestClient.META_VERSION;
import static io.mcpvertx.testing.StatelessTestClient.VERSION;
import static io.mcpvertx.server.stateless.StatelessFixtures.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the body of a 2026-07-28 request must carry, checked in the order the spec's errors imply: {@code _meta}
 * (-32602), then the version itself (-32022). The HTTP transport's header checks around these are tested with the
 * transport.
 */
@ExtendWith(VertxExtension.class)
class StatelessValidationTest {

  private static final int INVALID_PARAMS = -32602;
  private static final int UNSUPPORTED_VERSION = -32022;

  private StatelessTestClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    client = StatelessTestClient.engine(vertx, StatelessFixtures.server(vertx));
  }

  private static JsonObject metaWithout(String member) {
    JsonObject meta = StatelessTestClient.meta(StatelessTestClient.ALL_CAPABILITIES);
    meta.remove(member);
    return meta;
  }

  @Test
  void metaMustNameTheVersionAndTheCapabilities(VertxTestContext test) {
    client.request("server/discover").meta(null).send()
        .map(x -> x.assertError(INVALID_PARAMS))
        .compose(v -> client.request("server/discover").meta(metaWithout(META_VERSION)).send())
        .map(x -> x.assertError(INVALID_PARAMS))
        .compose(v -> client.request("server/discover").meta(metaWithout(META_CAPABILITIES)).send())
        .map(x -> x.assertError(INVALID_PARAMS))
        .compose(v -> client.request("server/discover").capabilities(null).send())
        .map(x -> x.assertError(INVALID_PARAMS))
        .compose(v -> client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject())
            .put(StatelessTestClient.META_CAPABILITIES, "sampling")).send())
        .map(x -> x.assertError(INVALID_PARAMS))
        .compose(v -> client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject())
            .put("io.modelcontextprotocol/logLevel", "loud")).send())
        .map(x -> x.assertError(INVALID_PARAMS))
        // clientInfo is optional
        .compose(v -> client.request("server/discover").meta(metaWithout("io.modelcontextprotocol/clientInfo"))
            .send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anUnsupportedVersionNamesTheSupportedOnes(VertxTestContext test) {
    JsonObject meta = StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "v999.0.0");
    client.request("server/discover").meta(meta).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(UNSUPPORTED_VERSION);
          assertEquals("v999.0.0", error.getJsonObject("data").getString("requested"));
          JsonArray supported = error.getJsonObject("data").getJsonArray("supported");
          assertTrue(supported.contains(VERSION), supported::encode);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theSupportedVersionsAreTheOnesDiscoverLists(VertxTestContext test) {
    client.request("server/discover").send().compose(discover -> client.request("tools/list")
            .meta(StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "2030-01-01")).send()
            .map(x -> {
              assertEquals(discover.complete().getJsonArray("supportedVersions"),
                  x.assertError(UNSUPPORTED_VERSION).getJsonObject("data").getJsonArray("supported"));
              return x;
            }))
        .onComplete(test.succeeding(x -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aSessionRevisionIsNotServedStatelessly(VertxTestContext test) {
    client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject()).put(META_VERSION, "2025-11-25"))
        .send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(UNSUPPORTED_VERSION);
          assertEquals("2025-11-25", error.getJsonObject("data").getString("requested"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void onlyTheBodyIsChecked(VertxTestContext test) {
    client.request("tools/call", call("echo", new JsonObject().put("text", "hi"))).send()
        .map(x -> x.complete())
        .compose(v -> client.request("tools/list").meta(StatelessTestClient.meta(new JsonObject())
            .put(META_VERSION, "v3")).send())
        .map(x -> x.assertError(UNSUPPORTED_VERSION))
        .compose(v -> client.request("tools/list").meta(null).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(INVALID_PARAMS);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void everyRefusalEchoesTheRequestId(VertxTestContext test) {
    client.request("tools/list").id(JsonRpcId.of("text-id")).meta(null).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("text-id", x.response().getString("id"));
          assertFalse(x.response().containsKey("result"));
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"not\":\"a token\"}", "1.5", "1.0", "true", "[\"t\"]"})
  void aProgressTokenThatIsNeitherStringNorIntegerIsInvalidParams(String token, VertxTestContext test) {
    JsonObject meta = StatelessTestClient.meta(new JsonObject())
        .put("progressToken", io.vertx.core.json.Json.decodeValue(token));
    client.request("tools/call", call("echo", new JsonObject().put("text", "hi"))).meta(meta).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(INVALID_PARAMS);
          assertTrue(error.getString("message").contains("progressToken"), error::encode);
          assertTrue(x.notifications().isEmpty(), () -> x.notifications().toString());
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"t\"", "7", "9223372036854775808"})
  void aStringOrIntegerProgressTokenIsServed(String token, VertxTestContext test) {
    JsonObject meta = StatelessTestClient.meta(new JsonObject())
        .put("progressToken", io.vertx.core.json.Json.decodeValue(token));
    client.request("tools/call", call("echo", new JsonObject().put("text", "hi"))).meta(meta).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\"tools\"", "[]", "true"})
  void listenWithoutANotificationsObjectIsInvalidParams(String notifications, VertxTestContext test) {
    JsonObject params = notifications.isEmpty() ? new JsonObject()
        : new JsonObject().put("notifications", io.vertx.core.json.Json.decodeValue(notifications));
    client.request("subscriptions/listen", params).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(INVALID_PARAMS);
          assertTrue(error.getString("message").contains("notifications"), error::encode);
          assertTrue(x.notifications().isEmpty(), "nothing acknowledged: " + x.notifications());
          client.assertNoViolations();
          test.completeNow();
        })));
  }
}
