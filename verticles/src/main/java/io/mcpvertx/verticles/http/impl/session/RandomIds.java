package io.mcpvertx.verticles.http.impl.session;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/** Ids nobody can guess (session ids, event-bus addresses of one verticle), and ids that only must not collide. */
public final class RandomIds {

  private static final SecureRandom RANDOM = new SecureRandom();

  private RandomIds() {
  }

  /**
   * {@code bytes} bytes of a fast generator, URL-safe base64: ids that must not collide but need not be secret,
   * such as those of POST streams (every request has one; a secure generator takes a lock and hashes for each,
   * and a stream is only ever reached with its session's id, which is secret).
   */
  public static String unique(int bytes) {
    byte[] random = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /** {@code bytes} cryptographically random bytes, URL-safe base64: visible ASCII. */
  public static String of(int bytes) {
    byte[] random = new byte[bytes];
    RANDOM.nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }
}
