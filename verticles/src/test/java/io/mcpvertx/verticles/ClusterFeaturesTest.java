package io.mcpvertx.verticles;

import static io.mcpvertx.verticles.FeatureVerticles.assertNoViolations;
import static io.mcpvertx.verticles.FeatureVerticles.firstText;
import static io.mcpvertx.verticles.FeatureVerticles.toolNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.verticles.ClusterNode.Cluster;
import io.mcpvertx.verticles.FeatureVerticles.LambdaTool;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tool verticles on worker-only nodes of a real Vert.x cluster (Hazelcast over 127.0.0.1): a server on node A
 * lists and calls them, and follows their nodes in and out of the cluster, whether they leave or crash.
 *
 * <p>The call timeout is left at its default (ten minutes): a call that fails within a test's patience failed
 * because its node left, not because it timed out.
 */
class ClusterFeaturesTest {

  private static final String TOOLS_CHANGED = "notifications/tools/list_changed";
  private static final RemoteFeaturesOptions OPTIONS = new RemoteFeaturesOptions().setMembershipCheckIntervalMs(100);

  private static Cluster cluster;
  /** Runs the MCP server; the workers have no server and no HTTP. */
  private static ClusterNode a;

  @BeforeAll
  static void startServerNode() {
    cluster = Cluster.of(5);
    a = await(ClusterNode.start("A", cluster, 0));
  }

  @AfterAll
  static void stopServerNode() {
    if (a != null) {
      await(a.close());
    }
  }

  @Test
  void aToolOnAWorkerOnlyNodeIsListedAndCalledWithProgressAndGoesWhenTheNodeLeaves() {
    ClusterNode worker = await(ClusterNode.start("W1", cluster, 1));
    McpServer server = FeatureVerticles.server(a.vertx);
    McpTestClient client = await(FeatureVerticles.client(a.vertx, server));
    RemoteFeatures remote = await(FeatureVerticles.attachOn(client, a.vertx, server, OPTIONS));
    StatelessTestClient listener = StatelessTestClient.engine(a.vertx, server);
    StatelessTestClient.Listening stream = await(FeatureVerticles.listen(listener,
        new JsonObject().put("toolsListChanged", true)));
    try {
      await(worker.vertx.deployVerticle(new LambdaTool(Tool.builder("far-echo").build(), (args, ctx) -> {
        ctx.progress(1, 2d, "halfway");
        ctx.progress(2, 2d, "there");
        return Future.succeededFuture(ToolResult.text(args.getString("text") + " from " + worker.name));
      })));
      await(client.awaitNotification(TOOLS_CHANGED));
      assertEquals(List.of("local-tool", "far-echo"), await(toolNames(client)));

      JsonObject result = await(client.call("tools/call", new JsonObject().put("name", "far-echo")
          .put("arguments", new JsonObject().put("text", "hello"))
          .put("_meta", new JsonObject().put("progressToken", "p1"))));
      assertEquals("hello from W1", firstText(result));
      List<JsonObject> progress = client.notifications("notifications/progress");
      assertEquals(2, progress.size());
      assertEquals("there", progress.get(1).getJsonObject("params").getString("message"));

      await(worker.close());
      await(client.awaitNotification(TOOLS_CHANGED));
      assertEquals(List.of("local-tool"), await(toolNames(client)));
      assertEquals(0, remote.size());
      await(stream.next(TOOLS_CHANGED)); // the tool arriving
      await(stream.next(TOOLS_CHANGED)); // and going
      assertNoViolations(client);
      listener.assertNoViolations();
    } finally {
      stream.close();
      await(remote.close());
      await(client.close());
    }
  }

  @Test
  void aCrashedNodesToolsGoAndItsCallInFlightFailsAtOnceWithAToolError() {
    ClusterNode worker = await(ClusterNode.start("W2", cluster, 2));
    McpServer server = FeatureVerticles.server(a.vertx);
    McpTestClient client = await(FeatureVerticles.client(a.vertx, server));
    RemoteFeatures remote = await(FeatureVerticles.attachOn(client, a.vertx, server, OPTIONS));
    CompletableFuture<Void> started = new CompletableFuture<>();
    try {
      await(worker.vertx.deployVerticle(new LambdaTool(Tool.builder("stuck").build(), (args, ctx) -> {
        started.complete(null);
        return Promise.<ToolResult>promise().future();
      })));
      await(client.awaitNotification(TOOLS_CHANGED));
      Future<JsonObject> call = client.call("tools/call", new JsonObject().put("name", "stuck"));
      await(Future.fromCompletionStage(started));

      worker.crash();
      JsonObject result = await(call);
      assertEquals(true, result.getBoolean("isError"));
      assertEquals("tool stuck failed: the cluster node serving it left before it answered", firstText(result));
      await(client.awaitNotification(TOOLS_CHANGED));
      assertEquals(List.of("local-tool"), await(toolNames(client)));
      assertNoViolations(client);
    } finally {
      worker.vertx.close();
      await(remote.close());
      await(client.close());
    }
  }

  @Test
  void aToolOnTwoWorkersStaysWhileEitherLivesAndGoesWithTheLast() {
    ClusterNode first = await(ClusterNode.start("W3", cluster, 3));
    ClusterNode second = await(ClusterNode.start("W4", cluster, 4));
    McpServer server = FeatureVerticles.server(a.vertx);
    McpTestClient client = await(FeatureVerticles.client(a.vertx, server));
    RemoteFeatures remote = await(FeatureVerticles.attachOn(client, a.vertx, server, OPTIONS));
    try {
      await(first.vertx.deployVerticle(whereAmI(first)));
      await(client.awaitNotification(TOOLS_CHANGED));
      // The same definition from a second node changes nothing listed; calls go to the newest announcement.
      await(second.vertx.deployVerticle(whereAmI(second)));
      callUntil(client, "W4"::equals);

      await(second.close());
      callUntil(client, "W3"::equals);
      assertEquals(List.of("local-tool", "where-am-i"), await(toolNames(client)));
      assertEquals(1, client.notifications(TOOLS_CHANGED).size(), "the tool never went away");

      first.crash();
      await(client.awaitNotification(TOOLS_CHANGED));
      assertEquals(List.of("local-tool"), await(toolNames(client)));
      assertNoViolations(client);
    } finally {
      first.vertx.close();
      await(remote.close());
      await(client.close());
    }
  }

  /** A tool answering with its node's name. */
  private static LambdaTool whereAmI(ClusterNode node) {
    return new LambdaTool(Tool.builder("where-am-i").build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(node.name)));
  }

  /**
   * Calls where-am-i until the answering node's name satisfies {@code expected}. While a node is on its way out, the
   * event bus may still route a call to it and report it unreachable; that error is allowed, no other.
   */
  private static void callUntil(McpTestClient client, Predicate<String> expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    String last = null;
    while (System.nanoTime() < deadline) {
      JsonObject response = await(client.request("tools/call", new JsonObject().put("name", "where-am-i")));
      if (response.containsKey("error")) {
        assertEquals("tool where-am-i is not available right now",
            response.getJsonObject("error").getString("message"), response::encode);
        last = response.encode();
      } else {
        JsonObject result = response.getJsonObject("result");
        assertFalse(result.containsKey("isError"), result::encode);
        last = firstText(result);
        if (expected.test(last)) {
          return;
        }
      }
      sleep(50);
    }
    throw new AssertionError("never answered as expected; last answer " + last);
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("did not complete: " + e, e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
