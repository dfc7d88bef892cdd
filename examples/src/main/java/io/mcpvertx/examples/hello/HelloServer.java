package io.mcpvertx.examples.hello;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The smallest useful server: one tool, one resource template and one prompt, served over stdio. */
public final class HelloServer {

  private HelloServer() {
  }

  /** The server with everything it keeps in memory. */
  public static McpServer create(Vertx vertx) {
    return create(vertx, McpStores.inMemory(vertx));
  }

  /** The server keeping its tasks, SSE events and sessions in {@code stores}. */
  // tag::first-tool[]
  public static McpServer create(Vertx vertx, McpStores stores) {
    McpServer server = McpServer.create(vertx, new McpServerOptions()
        .setServerInfo(ServerInfo.of("hello", "1.0.0"))
        .setInstructions("Greets people by name."), stores);

    server.tool(Tool.builder("greet")
            .description("Greets someone by name")
            .inputSchema(new JsonObject()
                .put("type", "object")
                .put("properties", new JsonObject().put("name", new JsonObject().put("type", "string")))
                .put("required", new JsonArray().add("name")))
            .build(),
        (args, ctx) -> Future.succeededFuture(ToolResult.text("Hello, " + args.getString("name") + "!")));
    // end::first-tool[]

    server.resourceTemplate(
        ResourceTemplate.of("hello://greetings/{name}", "greeting", "text/plain")
            .withDescription("A greeting for the named person"),
        (uri, vars, ctx) -> Future.succeededFuture(
            ResourceResult.text(uri, "text/plain", "Hello, " + vars.get("name") + "!")));

    server.prompt(
        Prompt.of("introduce", "Asks the model to introduce someone",
            PromptArgument.required("name", "Who to introduce")),
        (args, ctx) -> Future.succeededFuture(
            PromptResult.of(PromptMessage.user("Please introduce " + args.get("name") + " in one sentence."))));
    return server;
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    StdioServer.create(vertx, create(vertx)).serve().onComplete(done -> vertx.close());
  }
}
