package io.mcpvertx.annotations.impl;

import io.mcpvertx.server.content.ResourceContents;
import io.mcpvertx.server.resources.ResourceResult;
import java.lang.reflect.Method;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/** How a resource method's value becomes a {@link ResourceResult}, for the URI read and the declared MIME type. */
final class ResourceReturn {

  private final String mimeType;

  private ResourceReturn(String mimeType) {
    this.mimeType = mimeType;
  }

  static ResourceReturn of(Method method, ReturnType returns, String mimeType) {
    Class<?> raw = returns.raw();
    boolean contents = Collection.class.isAssignableFrom(raw) && returns.element() != null
        && ResourceContents.class.isAssignableFrom(returns.element());
    if (raw != ResourceResult.class && !ResourceContents.class.isAssignableFrom(raw) && raw != String.class
        && raw != byte[].class && !contents) {
      throw Where.problem(method, "a resource returns a ResourceResult, ResourceContents, a list of them, a String "
          + "or a byte[]");
    }
    return new ResourceReturn(mimeType.isEmpty() ? null : mimeType);
  }

  @SuppressWarnings("unchecked")
  ResourceResult convert(String uri, Object value) {
    if (value instanceof ResourceResult result) {
      return result;
    }
    if (value instanceof ResourceContents contents) {
      return ResourceResult.of(contents);
    }
    if (value instanceof String text) {
      return ResourceResult.text(uri, mimeType, text);
    }
    if (value instanceof byte[] bytes) {
      return ResourceResult.blob(uri, mimeType, Base64.getEncoder().encodeToString(bytes));
    }
    if (value instanceof Collection<?> contents) {
      return new ResourceResult(List.copyOf((Collection<ResourceContents>) contents));
    }
    throw new IllegalStateException("A resource method returned null for " + uri);
  }
}
