package io.mcpvertx.server.impl.features;

import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;

/**
 * The progress of one request: the token the client sent (a string or an integer; anything else means no
 * progress was asked for) and the last value reported, so values only increase, as the spec requires.
 *
 * <p>Confined to the context that owns the request.
 */
public final class ProgressTracker {

  private final Object token;
  private double last = Double.NEGATIVE_INFINITY;

  public ProgressTracker(JsonObject meta) {
    Object raw = meta.getValue("progressToken");
    // A string or an integer (of any size); anything else (1.5, true, objects) asks for no progress.
    this.token = raw instanceof String || raw instanceof Integer || raw instanceof Long
        || raw instanceof BigInteger ? raw : null;
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
