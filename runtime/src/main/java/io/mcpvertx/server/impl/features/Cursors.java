package io.mcpvertx.server.impl.features;

import io.mcpvertx.protocol.McpException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Opaque pagination cursors. A cursor encodes the offset of the next page; clients must not parse it, and a
 * cursor we did not issue is answered with -32602.
 */
final class Cursors {

  private static final String PREFIX = "mcpv1:";

  private Cursors() {
  }

  /** One page of a list, and the cursor of the next page (null on the last). */
  record Page<T>(List<T> items, String nextCursor) {
  }

  static <T> Page<T> page(List<T> all, String cursor, int pageSize) {
    int offset = cursor == null ? 0 : decode(cursor);
    if (offset > all.size()) {
      throw McpException.invalidParams("Invalid cursor: it points past the end of the list");
    }
    int end = Math.min(all.size(), offset + pageSize);
    return new Page<>(all.subList(offset, end), end < all.size() ? encode(end) : null);
  }

  static String encode(int offset) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString((PREFIX + offset).getBytes(StandardCharsets.UTF_8));
  }

  static int decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (text.startsWith(PREFIX)) {
        int offset = Integer.parseInt(text.substring(PREFIX.length()));
        if (offset >= 0) {
          return offset;
        }
      }
    } catch (IllegalArgumentException e) {
      // falls through to the error below
    }
    throw McpException.invalidParams("Invalid cursor");
  }
}
