package io.mcpvertx.spi.tasks.memory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.OptionalLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * List cursors of {@link InMemoryTaskStore}: a position in an owner's creation order, signed with a key only this
 * store knows, over the owner and the position. A cursor therefore names a position rather than a task, so it
 * stays valid when the task it followed expires, and the store can tell a cursor it issued for this owner from
 * anything else (another owner's cursor, a cursor of an earlier process, garbage).
 *
 * <p>Layout, before URL-safe base64: the position (8 bytes) then the first 12 bytes of HMAC-SHA256.
 */
final class ListCursors {

  private static final String ALGORITHM = "HmacSHA256";
  private static final int POSITION_BYTES = Long.BYTES;
  private static final int MAC_BYTES = 12;

  private final SecretKeySpec key;

  ListCursors() {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    this.key = new SecretKeySpec(secret, ALGORITHM);
  }

  String issue(String owner, long position) {
    ByteBuffer bytes = ByteBuffer.allocate(POSITION_BYTES + MAC_BYTES);
    bytes.putLong(position).put(mac(owner, position));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
  }

  /** The position a cursor names, or empty when this store did not issue it for {@code owner}. */
  OptionalLong read(String owner, String cursor) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      return OptionalLong.empty();
    }
    if (bytes.length != POSITION_BYTES + MAC_BYTES) {
      return OptionalLong.empty();
    }
    long position = ByteBuffer.wrap(bytes).getLong();
    byte[] given = Arrays.copyOfRange(bytes, POSITION_BYTES, bytes.length);
    return MessageDigest.isEqual(given, mac(owner, position)) ? OptionalLong.of(position) : OptionalLong.empty();
  }

  private byte[] mac(String owner, long position) {
    try {
      // A Mac is not thread-safe and lists are rare, so each call makes its own.
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      mac.update(ByteBuffer.allocate(POSITION_BYTES).putLong(position).array());
      mac.update(owner.getBytes(StandardCharsets.UTF_8));
      return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
    } catch (GeneralSecurityException e) {
      // Every Java platform must provide HmacSHA256.
      throw new IllegalStateException(e);
    }
  }
}
