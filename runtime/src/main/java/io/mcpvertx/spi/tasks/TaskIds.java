package io.mcpvertx.spi.tasks;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Task ids: 160 bits from a {@link SecureRandom}, URL-safe base64 without padding (27 characters). They are
 * unguessable because the extension lets a task id act as a bearer token for the task's state.
 */
public final class TaskIds {

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private TaskIds() {
  }

  public static String generate() {
    byte[] bytes = new byte[20];
    RANDOM.nextBytes(bytes);
    return ENCODER.encodeToString(bytes);
  }
}
