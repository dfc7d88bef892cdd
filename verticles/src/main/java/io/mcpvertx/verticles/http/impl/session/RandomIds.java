package io.mcpvertx.verticles.http.impl.session;

import java.security.SecureRandom;
import java.util.Base64;

/** Ids nobody can guess: session ids, stream ids, event-bus addresses of one verticle. */
public final class RandomIds {

  private static final SecureRandom RANDOM = new SecureRandom();

  private RandomIds() {
  }

  /** {@code bytes} cryptographically random bytes, URL-safe base64: visible ASCII. */
  public static String of(int bytes) {
    byte[] random = new byte[bytes];
    RANDOM.nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }
}
