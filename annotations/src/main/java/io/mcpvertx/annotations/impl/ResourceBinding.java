package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.McpResource;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.ResourceHandler;
import io.mcpvertx.server.resources.Resource;
import java.lang.reflect.Method;
import java.util.Map;

/** A resource method with its definition; a String parameter receives the URI read. */
record ResourceBinding(Resource resource, ResourceHandler handler, String where) {

  static ResourceBinding of(Object target, Method method, McpResource annotation) {
    String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
    StringParams params = StringParams.of(method, StringParams.Role.URI, null, false);
    ReturnType returns = ReturnType.of(method);
    ResourceReturn conversion = ResourceReturn.of(method, returns, annotation.mimeType());
    Invoker invoker = new Invoker(target, method, annotation.blocking(), returns.async());
    Resource resource = new Resource(annotation.uri(), name, annotation.title().isEmpty() ? null : annotation.title(),
        annotation.description().isEmpty() ? null : annotation.description(),
        annotation.mimeType().isEmpty() ? null : annotation.mimeType(), null, null, null);
    ResourceHandler handler = (uri, ctx) -> invoker.call(params.bind(new StringParams.Inputs(Map.of(), uri, null,
        ctx)), ctx).map(value -> conversion.convert(uri, value));
    return new ResourceBinding(resource, handler, Where.of(method));
  }

  void registerOn(McpServer server) {
    server.resource(resource, handler);
  }
}
