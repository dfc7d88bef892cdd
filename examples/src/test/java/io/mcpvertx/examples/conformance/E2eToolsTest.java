package io.mcpvertx.examples.conformance;

import static io.mcpvertx.examples.conformance.ConformanceFixturesTest.firstText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/** The tool our end-to-end tests stream and resume: steps spaced in time, then the request's token. */
@ExtendWith(VertxExtension.class)
class E2eToolsTest {

  @SessionRevisions
  void streamingProgressSendsEachStepThenTheToken(String version, Vertx vertx, VertxTestContext test) {
    JsonObject params = new JsonObject().put("name", "test_streaming_progress")
        .put("arguments", new JsonObject().put("steps", 4).put("intervalMs", 20))
        .put("_meta", new JsonObject().put("progressToken", 7));
    long start = System.nanoTime();
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.call("tools/call", params).map(result -> {
          assertEquals("4 steps done; progress token 7", firstText(result));
          assertTrue(System.nanoTime() - start >= 80_000_000L, "the steps are spaced by intervalMs");
          List<JsonObject> progress = client.notifications("notifications/progress").stream()
              .map(n -> n.getJsonObject("params")).toList();
          assertEquals(List.of(1, 2, 3, 4), progress.stream().map(p -> p.getInteger("progress")).toList());
          progress.forEach(p -> {
            assertEquals(7, p.getInteger("progressToken"));
            assertEquals(4, p.getInteger("total"));
          });
          client.assertNoViolations();
          return result;
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @SessionRevisions
  void streamingProgressRefusesArgumentsOutOfBounds(String version, Vertx vertx, VertxTestContext test) {
    SuiteProfile.connect(vertx, version)
        .compose(client -> client.request("tools/call", new JsonObject().put("name", "test_streaming_progress")
            .put("arguments", new JsonObject().put("steps", 1000))))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          // A JSON-RPC error before 2025-11-25, a tool error (isError) from it on: either names the bound.
          assertTrue(response.containsKey("error") || response.getJsonObject("result").getBoolean("isError", false),
              response.encode());
          assertTrue(response.encode().contains("maximum value of 50"), response.encode());
          test.completeNow();
        })));
  }
}
