package io.mcpvertx.examples.verticle;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.verticles.RemoteFeatures;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Serves the {@link ClockToolVerticle} over stdio: the server knows the tool only through its announcement. */
public final class ClockServer {

  private ClockServer() {
  }

  /**
   * Deploys the tool verticle and a server that exposes it. The verticle announces itself as it starts, and the
   * server registers the tool when the announcement arrives, a moment later on its own event loop.
   */
  public static Future<McpServer> start(Vertx vertx, McpStores stores) {
    McpServer server = McpServer.create(vertx, new McpServerOptions().setServerInfo(ServerInfo.of("clock", "1.0.0")),
        stores);
    return RemoteFeatures.attach(vertx, server)
        .compose(features -> vertx.deployVerticle(new ClockToolVerticle()))
        .map(id -> server);
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    start(vertx, McpStores.inMemory(vertx)).compose(server -> StdioServer.create(vertx, server).serve())
        .onComplete(done -> vertx.close());
  }
}
