package io.mcpvertx.server;

import static io.mcpvertx.server.McpTesting.assertError;
import static io.mcpvertx.server.McpTesting.assertNoViolations;
import static io.mcpvertx.server.McpTesting.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.content.Icon;
import io.mcpvertx.server.content.ResourceContents;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** prompts/list and prompts/get: arguments, their checks, and rich messages. */
@ExtendWith(VertxExtension.class)
class PromptsTest {

  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicReference<Map<String, String>> seen = new AtomicReference<>();

  private McpServer server(Vertx vertx) {
    Prompt review = new Prompt("code_review", "Code review", "Reviews code", List.of(
        new PromptArgument("code", "Code", "The code to review", true),
        PromptArgument.required("language", "Its language"),
        PromptArgument.optional("focus", "What to look at")), null);
    return McpServer.create(vertx).prompt(review, (args, ctx) -> {
      calls.incrementAndGet();
      seen.set(args);
      return Future.succeededFuture(new PromptResult("Review of " + args.get("language") + " code", List.of(
          PromptMessage.user("Please review this " + args.get("language") + " code:\n" + args.get("code")),
          PromptMessage.assistant("Looking at " + args.getOrDefault("focus", "everything")))));
    });
  }

  private static JsonObject get(String name, JsonObject arguments) {
    JsonObject params = new JsonObject().put("name", name);
    return arguments == null ? params : params.put("arguments", arguments);
  }

  @Test
  void listsPromptsWithTheirArguments(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-06-18").compose(client -> client.call("prompts/list", null).map(list -> {
      JsonObject prompt = list.getJsonArray("prompts").getJsonObject(0);
      assertEquals("code_review", prompt.getString("name"));
      assertEquals("Code review", prompt.getString("title"));
      assertEquals("Reviews code", prompt.getString("description"));
      JsonArray arguments = prompt.getJsonArray("arguments");
      assertEquals(new JsonObject().put("name", "code").put("title", "Code").put("description", "The code to review")
          .put("required", true), arguments.getJsonObject(0));
      assertEquals(new JsonObject().put("name", "focus").put("description", "What to look at"),
          arguments.getJsonObject(2));
      assertNoViolations(client);
      return list;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void leavesPromptAndArgumentTitlesOutBefore20250618(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-03-26").compose(client -> client.call("prompts/list", null).map(list -> {
      JsonObject prompt = list.getJsonArray("prompts").getJsonObject(0);
      assertFalse(prompt.containsKey("title"));
      assertFalse(prompt.getJsonArray("arguments").getJsonObject(0).containsKey("title"));
      assertNoViolations(client);
      return list;
    })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void listsPromptIconsOnlyFrom20251125(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).prompt(new Prompt("p", null, null, null,
        List.of(Icon.of("https://example.com/p.svg"))), (args, ctx) -> Future.succeededFuture(PromptResult.of()));
    open(vertx, server, "2025-11-25").compose(client -> client.call("prompts/list", null).map(list -> {
      assertEquals("https://example.com/p.svg", list.getJsonArray("prompts").getJsonObject(0).getJsonArray("icons")
          .getJsonObject(0).getString("src"));
      assertNoViolations(client);
      return list;
    })).compose(v -> open(vertx, server, "2025-06-18")).compose(client -> client.call("prompts/list", null)
        .map(list -> {
          assertFalse(list.getJsonArray("prompts").getJsonObject(0).containsKey("icons"));
          assertNoViolations(client);
          return list;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rendersAPromptWithItsArguments(Vertx vertx, VertxTestContext test) {
    JsonObject args = new JsonObject().put("code", "x = 1").put("language", "python");
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.call("prompts/get", get("code_review", args))
        .map(result -> {
          assertEquals(Map.of("code", "x = 1", "language", "python"), seen.get());
          assertEquals("Review of python code", result.getString("description"));
          JsonArray messages = result.getJsonArray("messages");
          assertEquals(2, messages.size());
          assertEquals("user", messages.getJsonObject(0).getString("role"));
          assertEquals("Please review this python code:\nx = 1",
              messages.getJsonObject(0).getJsonObject("content").getString("text"));
          assertEquals("assistant", messages.getJsonObject(1).getString("role"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsAMissingRequiredArgumentNamingIt(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.request("prompts/get",
        get("code_review", new JsonObject().put("code", "x = 1"))).map(response -> {
          String message = assertError(response, -32602).getString("message");
          assertTrue(message.contains("language"), message);
          assertFalse(message.contains("focus"), message);
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsAGetWithoutArgumentsWhenSomeAreRequired(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.request("prompts/get",
        get("code_review", null)).map(response -> {
          String message = assertError(response, -32602).getString("message");
          assertTrue(message.contains("code") && message.contains("language"), message);
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsANonStringArgument(Vertx vertx, VertxTestContext test) {
    JsonObject args = new JsonObject().put("code", "x = 1").put("language", new JsonArray().add("python"));
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.request("prompts/get",
        get("code_review", args)).map(response -> {
          assertTrue(assertError(response, -32602).getString("message").contains("language"));
          assertEquals(0, calls.get());
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void rejectsAnUnknownPrompt(Vertx vertx, VertxTestContext test) {
    open(vertx, server(vertx), "2025-11-25").compose(client -> client.request("prompts/get", get("nope", null))
        .map(response -> {
          assertError(response, -32602);
          assertNoViolations(client);
          return response;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void sendsImagesAndEmbeddedResourcesInMessages(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).prompt(Prompt.of("rich", "Rich messages"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(
            PromptMessage.user(Content.image("iVBORw0KGgo=", "image/png")),
            PromptMessage.user(Content.resource(ResourceContents.text("file:///a.py", "text/x-python", "x = 1"))),
            PromptMessage.user(Content.resource(ResourceContents.blob("file:///a.bin", null, "AAEC"))))));
    open(vertx, server, "2025-11-25").compose(client -> client.call("prompts/get", get("rich", null))
        .map(result -> {
          JsonArray messages = result.getJsonArray("messages");
          JsonObject image = messages.getJsonObject(0).getJsonObject("content");
          assertEquals(new JsonObject().put("type", "image").put("data", "iVBORw0KGgo=").put("mimeType", "image/png"),
              image);
          JsonObject text = messages.getJsonObject(1).getJsonObject("content");
          assertEquals("resource", text.getString("type"));
          assertEquals(new JsonObject().put("uri", "file:///a.py").put("mimeType", "text/x-python")
              .put("text", "x = 1"),
              text.getJsonObject("resource"));
          JsonObject blob = messages.getJsonObject(2).getJsonObject("content").getJsonObject("resource");
          assertEquals(new JsonObject().put("uri", "file:///a.bin").put("blob", "AAEC"), blob);
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }

  @Test
  void degradesAudioInMessagesOn20241105(Vertx vertx, VertxTestContext test) {
    McpServer server = McpServer.create(vertx).prompt(Prompt.of("sound", null),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user(Content.audio("UklGRg==",
            "audio/wav")))));
    open(vertx, server, "2024-11-05").compose(client -> client.call("prompts/get", get("sound", null))
        .map(result -> {
          JsonObject content = result.getJsonArray("messages").getJsonObject(0).getJsonObject("content");
          assertEquals("text", content.getString("type"));
          assertNoViolations(client);
          return result;
        })).onComplete(test.succeedingThenComplete());
  }
}
