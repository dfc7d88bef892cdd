package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.RemoteFeatures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An annotated verticle serves its features through the event bus to every server with RemoteFeatures attached,
 * on its own context, and withdraws them when undeployed.
 */
@ExtendWith(VertxExtension.class)
class AnnotatedVerticleTest {

  /** A verticle with state: calls run on its context, so the counter needs no lock. */
  public static class ShelfVerticle extends AnnotatedVerticle {
    private int served;
    private Thread home;

    @Override
    public Future<?> start() {
      home = Thread.currentThread();
      return super.start();
    }

    @McpTool(description = "Counts the calls served, on the verticle's own event loop")
    public String count() {
      served++;
      return (Thread.currentThread() == home ? "home " : "elsewhere ") + served;
    }

    @McpTool(description = "Blocks", blocking = true)
    public String shelve(String title) {
      return (Context.isOnEventLoopThread() ? "on-loop " : "off-loop ") + title;
    }

    @McpPrompt(description = "Recommends a book")
    public String recommend(String mood) {
      return "A book for a " + mood + " day";
    }

    @McpResource(uri = "shelf://list", mimeType = "text/plain")
    public String list() {
      return "Dune, Emma";
    }
  }

  public static class TemplateVerticle extends AnnotatedVerticle {
    @McpResourceTemplate(uriTemplate = "shelf://{id}")
    public String read(String id) {
      return id;
    }
  }

  private static Future<RemoteFeatures> attach(Vertx vertx, McpServer server) {
    Promise<RemoteFeatures> attached = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> RemoteFeatures.attach(vertx, server).onComplete(attached));
    return attached.future();
  }

  /** Polls until the bridge exposes a count the predicate accepts; the test's timeout bounds the wait. */
  private static Future<RemoteFeatures> until(Vertx vertx, RemoteFeatures remote, IntPredicate size) {
    return size.test(remote.size()) ? Future.succeededFuture(remote)
        : vertx.timer(5).compose(t -> until(vertx, remote, size));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", Wires.STATELESS})
  void servesItsToolsPromptsAndResourcesThroughTheEventBus(String version, Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx);
    attach(vertx, server)
        .compose(remote -> vertx.deployVerticle(new ShelfVerticle()).compose(id -> until(vertx, remote, n -> n == 4)))
        .compose(remote -> Wires.call(vertx, server, version, "count", new JsonObject()))
        .compose(first -> Wires.call(vertx, server, version, "count", new JsonObject()))
        .map(Wires.check(second -> assertEquals("home 2", Wires.text(second))))
        .compose(v -> Wires.call(vertx, server, version, "shelve", new JsonObject().put("title", "Dune")))
        .map(Wires.check(result -> assertEquals("off-loop Dune", Wires.text(result))))
        .compose(v -> Wires.request(vertx, server, version, "prompts/get", new JsonObject().put("name", "recommend")
            .put("arguments", new JsonObject().put("mood", "rainy"))))
        .map(Wires.check(response -> assertEquals("A book for a rainy day", response.getJsonObject("result")
            .getJsonArray("messages").getJsonObject(0).getJsonObject("content").getString("text"))))
        .compose(v -> Wires.request(vertx, server, version, "resources/read", new JsonObject().put("uri",
            "shelf://list")))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals("Dune, Emma", response.getJsonObject("result").getJsonArray("contents").getJsonObject(0)
              .getString("text"));
          test.completeNow();
        })));
  }

  @Test
  void undeployingWithdrawsEveryFeature(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx);
    attach(vertx, server).compose(remote -> vertx.deployVerticle(new ShelfVerticle())
            .compose(id -> until(vertx, remote, n -> n == 4).compose(r -> vertx.undeploy(id)))
            .compose(v -> until(vertx, remote, n -> n == 0)))
        .onComplete(test.succeeding(remote -> test.verify(() -> {
          assertTrue(!server.removeTool("count"), "the tool is gone from the server");
          test.completeNow();
        })));
  }

  @Test
  void aTemplateInAVerticleFailsTheDeployment(Vertx vertx, VertxTestContext test) {
    vertx.deployVerticle(new TemplateVerticle()).onComplete(test.failing(e -> test.verify(() -> {
      assertInstanceOf(HandlerDefinitionException.class, e);
      assertTrue(e.getMessage().contains("TemplateVerticle.read(String)"), e.getMessage());
      test.completeNow();
    })));
  }
}
