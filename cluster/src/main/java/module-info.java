/** A clustered Vert.x on embedded Hazelcast for a deployment of several MCP server instances. */
module io.mcpvertx.cluster {
  requires transitive io.vertx.core;
  requires io.vertx.clustermanager.hazelcast;
  requires com.hazelcast.core;

  exports io.mcpvertx.cluster;
}
