package io.mcpvertx.storage.redis.impl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * List cursors of the Redis task store: a position in an owner's creation order (an entry of the owner's index,
 * which need not exist any more), with a check over the owner and the position, in URL-safe base64.
 *
 * <p>Every instance sharing the store must accept every other's cursors, so the check is a digest rather than a
 * per-process secret. It tells issued cursors from garbage, from altered ones and from another owner's; someone
 * who forges a valid cursor gains nothing, since it can only name a position in the caller's own list. The
 * position is checked for shape before it reaches Redis, where it becomes the start of a lexicographic range.
 */
final class ListCursor {

  private static final int CHECK_BYTES = 12;
  private static final Pattern POSITION = Pattern.compile("\\d{18}:[A-Za-z0-9._~-]+");

  private ListCursor() {
  }

  static String issue(String owner, String position) {
    byte[] bytes = position.getBytes(StandardCharsets.UTF_8);
    byte[] cursor = Arrays.copyOf(bytes, bytes.length + CHECK_BYTES);
    System.arraycopy(check(owner, bytes), 0, cursor, bytes.length, CHECK_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor);
  }

  /** The position a cursor names, or null when the store did not issue it for {@code owner}. */
  static String read(String owner, String cursor) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (bytes.length <= CHECK_BYTES || bytes.length > 512) {
      return null;
    }
    byte[] position = Arrays.copyOf(bytes, bytes.length - CHECK_BYTES);
    byte[] given = Arrays.copyOfRange(bytes, position.length, bytes.length);
    String text = new String(position, StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, check(owner, position)) && POSITION.matcher(text).matches() ? text : null;
  }

  private static byte[] check(String owner, byte[] position) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update("mcp-vertx task list cursor\n".getBytes(StandardCharsets.UTF_8));
      digest.update(owner.getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
      digest.update(position);
      return Arrays.copyOf(digest.digest(), CHECK_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
