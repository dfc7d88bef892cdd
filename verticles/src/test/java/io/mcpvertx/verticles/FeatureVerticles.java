package io.mcpvertx.verticles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Feature verticles made of lambdas, and the fixture the remote-feature tests share: a server with one local tool,
 * prompt and resource (so sessions are offered every capability with {@code listChanged}) and an initialized
 * in-process client.
 */
final class FeatureVerticles {

  static final String LATEST = "2025-11-25";

  private FeatureVerticles() {
  }

  static final class LambdaTool extends McpToolVerticle {
    private final Tool tool;
    private final BiFunction<JsonObject, RequestContext, Future<ToolResult>> handler;

    LambdaTool(Tool tool, BiFunction<JsonObject, RequestContext, Future<ToolResult>> handler) {
      this.tool = tool;
      this.handler = handler;
    }

    @Override
    protected Tool tool() {
      return tool;
    }

    @Override
    protected Future<ToolResult> call(JsonObject arguments, RequestContext ctx) {
      return handler.apply(arguments, ctx);
    }
  }

  static final class LambdaPrompt extends McpPromptVerticle {
    private final Prompt prompt;
    private final BiFunction<Map<String, String>, RequestContext, Future<PromptResult>> handler;

    LambdaPrompt(Prompt prompt, BiFunction<Map<String, String>, RequestContext, Future<PromptResult>> handler) {
      this.prompt = prompt;
      this.handler = handler;
    }

    @Override
    protected Prompt prompt() {
      return prompt;
    }

    @Override
    protected Future<PromptResult> get(Map<String, String> arguments, RequestContext ctx) {
      return handler.apply(arguments, ctx);
    }
  }

  static final class LambdaResource extends McpResourceVerticle {
    private final Resource resource;
    private final BiFunction<String, RequestContext, Future<ResourceResult>> handler;

    LambdaResource(Resource resource, BiFunction<String, RequestContext, Future<ResourceResult>> handler) {
      this.resource = resource;
      this.handler = handler;
    }

    @Override
    protected Resource resource() {
      return resource;
    }

    @Override
    protected Future<ResourceResult> read(String uri, RequestContext ctx) {
      return handler.apply(uri, ctx);
    }
  }

  /** A tool verticle that answers with the text it is given. */
  static LambdaTool echo(String name) {
    return new LambdaTool(Tool.builder(name).inputSchema(new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))
            .put("required", new io.vertx.core.json.JsonArray().add("text"))).build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text(args.getString("text"))));
  }

  /** A server offering one local tool, prompt and resource. */
  static McpServer server(Vertx vertx) {
    return server(vertx, new McpServerOptions());
  }

  static McpServer server(Vertx vertx, McpServerOptions options) {
    return McpServer.create(vertx, options)
        .tool(Tool.builder("local-tool").build(), (args, ctx) -> Future.succeededFuture(ToolResult.text("local")))
        .prompt(Prompt.of("local-prompt", "A local prompt"),
            (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user("local"))))
        .resource(Resource.of("local://resource", "local", "text/plain"),
            (uri, ctx) -> Future.succeededFuture(ResourceResult.text(uri, "text/plain", "local")));
  }

  /**
   * An initialized client of {@code server} whose session is operating (the ping after notifications/initialized
   * proves it), so every later registry change reaches it as list_changed.
   */
  static Future<McpTestClient> client(Vertx vertx, McpServer server, JsonObject capabilities) {
    return client(vertx, server, LATEST, capabilities);
  }

  static Future<McpTestClient> client(Vertx vertx, McpServer server, String version, JsonObject capabilities) {
    return McpTestClient.inProcess(vertx, server)
        .compose(client -> client.initialize(version, capabilities)
            .compose(init -> client.call("ping", null))
            .map(pong -> client));
  }

  static Future<McpTestClient> client(Vertx vertx, McpServer server) {
    return client(vertx, server, new JsonObject());
  }

  /**
   * A 2026-07-28 {@code subscriptions/listen} of {@code client} asking for {@code notifications} (the request's
   * filter), as a transport without headers opens it; yields the stream once acknowledged.
   */
  static Future<StatelessTestClient.Listening> listen(StatelessTestClient client, JsonObject notifications) {
    return client.request("subscriptions/listen", new JsonObject().put("notifications", notifications))
        .capabilities(new JsonObject()).listen()
        .compose(stream -> stream.next("notifications/subscriptions/acknowledged").map(stream));
  }

  /** Attaches RemoteFeatures on the client's context, so its announcements are handled there, in order. */
  static Future<RemoteFeatures> attachOn(McpTestClient client, Vertx vertx, McpServer server) {
    return attachOn(client, vertx, server, RemoteFeatures.DEFAULT_CALL_TIMEOUT_MS);
  }

  static Future<RemoteFeatures> attachOn(McpTestClient client, Vertx vertx, McpServer server, long callTimeoutMs) {
    return attachOn(client, vertx, server, new RemoteFeaturesOptions().setCallTimeoutMs(callTimeoutMs));
  }

  static Future<RemoteFeatures> attachOn(McpTestClient client, Vertx vertx, McpServer server,
      RemoteFeaturesOptions options) {
    Promise<RemoteFeatures> attached = Promise.promise();
    client.context().runOnContext(v -> RemoteFeatures.attach(vertx, server, options).onComplete(attached));
    return attached.future();
  }

  /**
   * A client of a fresh server to which {@code verticle} was deployed after RemoteFeatures was attached; yields once
   * the client has been told the list changed (so the feature is registered).
   */
  static Future<McpTestClient> withRemote(Vertx vertx, McpFeatureVerticle verticle, JsonObject capabilities) {
    return withRemote(vertx, server(vertx), verticle, capabilities);
  }

  static Future<McpTestClient> withRemote(Vertx vertx, McpServer server, McpFeatureVerticle verticle,
      JsonObject capabilities) {
    String changed = "notifications/" + switch (verticle.kind()) {
      case "tool" -> "tools";
      case "prompt" -> "prompts";
      default -> "resources";
    } + "/list_changed";
    return client(vertx, server, capabilities).compose(client -> attachOn(client, vertx, server)
        .compose(remote -> vertx.deployVerticle(verticle))
        .compose(id -> client.awaitNotification(changed))
        .map(n -> client));
  }

  static Future<McpTestClient> withRemote(Vertx vertx, McpFeatureVerticle verticle) {
    return withRemote(vertx, verticle, new JsonObject());
  }

  /** The names (or URIs) a list method returns, in order. */
  static Future<List<String>> names(McpTestClient client, String method, String member, String key) {
    return client.call(method, null).map(result -> result.getJsonArray(member).stream()
        .map(item -> ((JsonObject) item).getString(key)).toList());
  }

  static Future<List<String>> toolNames(McpTestClient client) {
    return names(client, "tools/list", "tools", "name");
  }

  static String firstText(JsonObject result) {
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  static void assertNoViolations(McpTestClient client) {
    assertEquals(List.of(), client.violations());
  }
}
