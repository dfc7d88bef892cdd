package io.mcpvertx.verticles.http.auth.impl;

import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;

/**
 * The RFC 9728 protected resource metadata of the endpoint and where it is served: the path-suffixed well-known
 * URI of the resource (the one challenges point to), and the root one for clients that try it.
 */
public final class ResourceMetadata {

  public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";
  /** Where 2025-03-26 clients look for authorization-server metadata on the MCP server's own origin. */
  public static final String AUTHORIZATION_SERVER_WELL_KNOWN = "/.well-known/oauth-authorization-server";

  private final JsonObject document;
  private final String path;
  private final String url;

  public ResourceMetadata(McpAuthOptions options, List<String> scopesSupported) {
    URI resource = URI.create(options.getResource());
    String resourcePath = resource.getRawPath() == null ? "" : resource.getRawPath();
    while (resourcePath.endsWith("/")) {
      resourcePath = resourcePath.substring(0, resourcePath.length() - 1);
    }
    this.path = WELL_KNOWN + resourcePath;
    this.url = resource.getScheme() + "://" + resource.getRawAuthority() + path;
    JsonObject json = new JsonObject()
        .put("resource", options.getResource())
        .put("authorization_servers", new JsonArray().add(options.getIssuer()))
        .put("bearer_methods_supported", new JsonArray().add("header"));
    if (!scopesSupported.isEmpty()) {
      json.put("scopes_supported", new JsonArray(List.copyOf(scopesSupported)));
    }
    if (options.getResourceName() != null) {
      json.put("resource_name", options.getResourceName());
    }
    this.document = json;
  }

  /** The metadata document; a copy. */
  public JsonObject document() {
    return document.copy();
  }

  /** The path-suffixed well-known path of the resource (the root one when the resource has no path). */
  public String path() {
    return path;
  }

  /** The absolute URL of {@link #path()} on the resource's origin: the {@code resource_metadata} of challenges. */
  public String url() {
    return url;
  }
}
