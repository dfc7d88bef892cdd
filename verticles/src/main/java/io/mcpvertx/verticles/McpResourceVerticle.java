package io.mcpvertx.verticles;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.verticles.impl.RemoteProtocol;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** A concrete resource as a verticle. */
public abstract class McpResourceVerticle extends McpFeatureVerticle {

  private Resource resource;

  protected abstract Resource resource();

  protected abstract Future<ResourceResult> read(String uri, RequestContext ctx);

  @Override
  final String kind() {
    return RemoteProtocol.KIND_RESOURCE;
  }

  @Override
  final String key() {
    return definitionResource().uri();
  }

  @Override
  final JsonObject definition() {
    return definitionResource().toJson(ProtocolVersion.LATEST);
  }

  @Override
  final Future<JsonObject> serve(JsonObject payload, RequestContext ctx) {
    return read(payload.getString("uri", key()), ctx).map(ResourceResult::toJson);
  }

  /**
   * Tells the sessions and streams subscribed to this resource, on every instance whose server has
   * {@link ClusterNotifications} attached, that its content changed.
   */
  protected final void updated() {
    ClusterNotifications.resourceUpdated(vertx, key());
  }

  private Resource definitionResource() {
    if (resource == null) {
      resource = resource();
    }
    return resource;
  }
}
