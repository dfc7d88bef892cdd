package com.example.starter;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.RedisStores;
import io.mcpvertx.verticles.RemoteFeatures;
import io.mcpvertx.verticles.http.McpHttpServer;
import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * An MCP server of your own over Streamable HTTP: one tool written as a lambda ({@code add}), one written as a
 * verticle ({@link UpperCaseToolVerticle}, {@code upper_case}).
 *
 * <p>{@code PORT} sets the port (3000; 0 for any free one). With {@code REDIS_URL} set, tasks, SSE events and
 * sessions live in that Redis, so several instances behind one address serve the same clients; without it they
 * stay in this process.
 */
public final class StarterServer {

  private StarterServer() {
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "3000"));
    String redisUrl = System.getenv("REDIS_URL");
    McpHttpServerOptions http = new McpHttpServerOptions().setPort(port);

    // Where tasks, SSE events and sessions are kept: in this process, or all four stores on one Redis client.
    McpStores stores = redisUrl == null ? McpStores.inMemory(vertx)
        : RedisStores.create(vertx, new RedisStoreOptions().setConnectionString(redisUrl));

    McpServer server = McpServer.create(vertx,
        new McpServerOptions().setServerInfo(ServerInfo.of("starter", "1.0.0")), stores);

    // A tool as a lambda: a definition, and a function of the arguments that returns a Future.
    server.tool(Tool.builder("add")
            .description("Adds two numbers")
            .inputSchema(new JsonObject().put("type", "object")
                .put("properties", new JsonObject()
                    .put("a", new JsonObject().put("type", "number"))
                    .put("b", new JsonObject().put("type", "number")))
                .put("required", new JsonArray().add("a").add("b")))
            .build(),
        (arguments, ctx) -> Future.succeededFuture(ToolResult.text(String.valueOf(
            arguments.getDouble("a") + arguments.getDouble("b")))));

    // A tool as a verticle: it announces itself on the event bus, and the server exposes what is announced.
    RemoteFeatures.attach(vertx, server)
        .compose(features -> vertx.deployVerticle(new UpperCaseToolVerticle()))
        .compose(id -> McpHttpServer.create(vertx, server, http).listen())
        .onSuccess(listening -> System.err.println("MCP server listening on http://" + http.getHost() + ":"
            + listening.actualPort() + http.getPath() + (redisUrl == null ? "" : " (stores in " + redisUrl + ")")))
        .onFailure(e -> {
          System.err.println("Could not start: " + e.getMessage());
          vertx.close().onComplete(v -> System.exit(1));
        });
  }
}
