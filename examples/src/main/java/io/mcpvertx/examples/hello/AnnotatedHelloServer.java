package io.mcpvertx.examples.hello;

import io.mcpvertx.annotations.AnnotatedFeatures;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Vertx;

/** {@link HelloServer} written with annotations ({@link HelloFeatures}): the same features, served over stdio. */
public final class AnnotatedHelloServer {

  private AnnotatedHelloServer() {
  }

  public static McpServer create(Vertx vertx, McpStores stores) {
    McpServer server = McpServer.create(vertx, new McpServerOptions()
        .setServerInfo(ServerInfo.of("hello", "1.0.0"))
        .setInstructions("Greets people by name."), stores);
    AnnotatedFeatures.register(server, new HelloFeatures());
    return server;
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    StdioServer.create(vertx, create(vertx, McpStores.inMemory(vertx))).serve().onComplete(done -> vertx.close());
  }
}
