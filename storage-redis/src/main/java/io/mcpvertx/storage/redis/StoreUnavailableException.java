package io.mcpvertx.storage.redis;

/**
 * A Redis store could not reach Redis, or Redis did not answer in time. An expected condition during an outage,
 * so it carries no stack trace; the store recovers by itself once Redis is back.
 */
public class StoreUnavailableException extends RuntimeException {

  public StoreUnavailableException(String message) {
    super(message, null, true, false);
  }
}
