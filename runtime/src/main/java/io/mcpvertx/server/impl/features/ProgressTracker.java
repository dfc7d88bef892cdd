package io.mcpvertx.server.impl.features;

import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;

/**
 * The progress of one request: the token the client sent (a string or an integer) and the last value reported, so
 * values only increase, as the spec requires. A token of another type is refused before the request is served
 * ({@link #invalidToken}).
 *
 * <p>Confined to the context that owns the request.
 */
public final class ProgressTracker {

  private final Object token;
  private double last = Double.NEGATIVE_INFINITY;

  public ProgressTracker(JsonObject meta) {
    Object raw = meta.getValue("progressToken");
    this.token = isToken(raw) ? raw : null;
  }

  /** What {@link #invalidToken} reads for a {@code _meta} without {@code progressToken}. */
  private static final Object NO_TOKEN = new Object();

  /**
   * Why a request's {@code _meta} (null when absent) carries a progress token the schema does not allow, or null
   * when it carries none or a valid one. The schema's {@code ProgressToken} is a string or an integer: an object,
   * a boolean or a number written with a fraction or an exponent ({@code 1.5}, {@code 1.0}) is the client's
   * mistake, answered -32602 rather than taken as "no progress wanted".
   */
  public static String invalidToken(JsonObject meta) {
    // One lookup: a token is usually absent, and a present null is refused like any other non-token.
    Object raw = meta == null ? NO_TOKEN : meta.getMap().getOrDefault("progressToken", NO_TOKEN);
    if (raw == NO_TOKEN || raw instanceof CharSequence || isToken(raw)) {
      return null;
    }
    return "_meta.progressToken must be a string or an integer";
  }

  /** A string or an integer of any size, as the codec reads them (null is no token). */
  private static boolean isToken(Object raw) {
    return raw instanceof String || raw instanceof Integer || raw instanceof Long || raw instanceof BigInteger;
  }

  public boolean requested() {
    return token != null;
  }

  /**
   * The notification for a new value, or null when it must be dropped: no token, a value that does not increase,
   * or one JSON cannot carry (NaN and infinities, which Jackson would write as strings).
   *
   * @param withMessage whether the revision carries a message on progress notifications
   */
  public JsonRpcNotification next(double progress, Double total, String message, boolean withMessage) {
    if (token == null || !Double.isFinite(progress) || !(progress > last)) {
      return null;
    }
    last = progress;
    JsonObject params = new JsonObject().put("progressToken", token).put("progress", progress);
    if (total != null && Double.isFinite(total)) {
      params.put("total", total);
    }
    if (message != null && withMessage) {
      params.put("message", message);
    }
    return new JsonRpcNotification("notifications/progress", params);
  }
}
