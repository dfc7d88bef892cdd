package io.mcpvertx.server.impl.tracing;

import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.tracing.McpTracer;
import java.util.Objects;

/**
 * The tracer a server's engines read for each request: one per server, set by {@code McpServer.tracer}. Volatile
 * so a tracer set after the server was built is seen by every event loop; a read is a plain load on the platforms
 * we run on.
 */
public final class TracerSlot {

  private final McpInstance instance;
  private volatile McpTracer tracer = McpTracer.NONE;

  /** {@code instance}: the cluster instance this server is, for log lines; null outside a cluster. */
  public TracerSlot(McpInstance instance) {
    this.instance = instance;
  }

  /** The instance's current id (it changes if its lease is registered anew); null outside a cluster. */
  public String instanceId() {
    return instance == null ? null : instance.id();
  }

  public McpTracer get() {
    return tracer;
  }

  public void set(McpTracer tracer) {
    this.tracer = Objects.requireNonNull(tracer, "tracer");
  }
}
