package io.mcpvertx.examples.annotated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.examples.hello.AnnotatedHelloServer;
import io.mcpvertx.examples.hello.HelloServer;
import io.mcpvertx.examples.verticle.AnnotatedClockVerticle;
import io.mcpvertx.examples.verticle.ClockToolVerticle;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.verticles.McpFeatureVerticle;
import io.mcpvertx.verticles.RemoteFeatures;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The annotated twins of the hello and clock examples answer as the builder versions do, over a 2025 session and
 * the 2026-07-28 stateless wire.
 */
@ExtendWith(VertxExtension.class)
class AnnotatedTwinsTest {

  private static final String STATELESS = StatelessTestClient.VERSION;

  /** The results of {@code requests} (method, params pairs), in order. */
  private static Future<List<JsonObject>> answers(Vertx vertx, McpServer server, String version,
      List<JsonObject> requests) {
    Future<List<JsonObject>> all = Future.succeededFuture(List.of());
    for (JsonObject request : requests) {
      all = all.compose(done -> answer(vertx, server, version, request).map(one -> {
        List<JsonObject> more = new ArrayList<>(done);
        more.add(one);
        return more;
      }));
    }
    return all;
  }

  private static Future<JsonObject> answer(Vertx vertx, McpServer server, String version, JsonObject request) {
    String method = request.getString("method");
    JsonObject params = request.getJsonObject("params");
    if (version.equals(STATELESS)) {
      StatelessTestClient client = StatelessTestClient.engine(vertx, server);
      return client.request(method, params.copy()).send().map(x -> {
        client.assertNoViolations();
        return x.result().copy();
      });
    }
    return McpTestClient.inProcess(vertx, server).compose(client -> client.initialize(version)
        .compose(init -> client.call(method, params.copy()))
        .map(result -> {
          client.assertNoViolations();
          return result;
        }));
  }

  private static JsonObject request(String method, JsonObject params) {
    return new JsonObject().put("method", method).put("params", params);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-06-18", STATELESS})
  void helloAnswersAsItsBuilderTwin(String version, Vertx vertx, VertxTestContext test) {
    List<JsonObject> requests = List.of(
        request("tools/call", new JsonObject().put("name", "greet").put("arguments", new JsonObject()
            .put("name", "Ada"))),
        request("resources/read", new JsonObject().put("uri", "hello://greetings/Ada")),
        request("prompts/get", new JsonObject().put("name", "introduce").put("arguments", new JsonObject()
            .put("name", "Ada"))));
    answers(vertx, HelloServer.create(vertx), version, requests)
        .compose(builder -> answers(vertx, AnnotatedHelloServer.create(vertx, McpStores.inMemory(vertx)), version,
            requests).map(annotated -> List.of(builder, annotated)))
        .onComplete(test.succeeding(both -> test.verify(() -> {
          for (int i = 0; i < requests.size(); i++) {
            JsonObject builder = both.get(0).get(i);
            JsonObject annotated = both.get(1).get(i);
            builder.remove("_meta");
            annotated.remove("_meta");
            assertEquals(builder, annotated, requests.get(i).encode());
          }
          test.completeNow();
        })));
  }

  private static Future<JsonObject> clock(Vertx vertx, VerticleBase verticle, String version, String zone) {
    McpServer server = McpServer.create(vertx);
    Promise<RemoteFeatures> attached = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> RemoteFeatures.attach(vertx, server).onComplete(attached));
    return attached.future().compose(remote -> vertx.deployVerticle(verticle).compose(id -> registered(vertx, remote)
        .compose(r -> answer(vertx, server, version, request("tools/call", new JsonObject().put("name", "clock")
            .put("arguments", new JsonObject().put("zone", zone)))))
        .compose(result -> remote.close().compose(v -> vertx.undeploy(id)).map(result))));
  }

  private static Future<RemoteFeatures> registered(Vertx vertx, RemoteFeatures remote) {
    return remote.size() == 1 ? Future.succeededFuture(remote)
        : vertx.timer(5).compose(t -> registered(vertx, remote));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", STATELESS})
  void clockAnswersAsItsBuilderTwin(String version, Vertx vertx, VertxTestContext test) {
    McpFeatureVerticle builder = new ClockToolVerticle();
    clock(vertx, builder, version, "Mars/Olympus")
        .compose(unknown -> clock(vertx, new AnnotatedClockVerticle(), version, "Mars/Olympus")
            .map(twin -> {
              assertEquals(unknown.getJsonArray("content"), twin.getJsonArray("content"));
              assertEquals(unknown.getBoolean("isError"), twin.getBoolean("isError"));
              return twin;
            }))
        .compose(v -> clock(vertx, new AnnotatedClockVerticle(), version, "Europe/Paris"))
        .onComplete(test.succeeding(result -> test.verify(() -> {
          String text = result.getJsonArray("content").getJsonObject(0).getString("text");
          assertTrue(text.endsWith("[Europe/Paris]"), text);
          test.completeNow();
        })));
  }
}
