package io.mcpvertx.verticles;

import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.Principal;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.Objects;

/**
 * One MCP session as a verticle: it owns the session's state on its own event loop and speaks JSON-RPC over
 * the event bus only.
 *
 * <p>Inbound: {@link JsonRpcMessage}s and {@link SessionBatch}es at {@link McpEventBus#sessionAddress}. Each
 * carries a {@link McpEventBus#REPLY_TO} header (where the response and everything emitted while serving it go)
 * and optionally {@link McpEventBus#STREAM}, copied onto those outbound messages. Messages that belong to no
 * request (list changes, resource updates) go to the default outbound address with
 * {@link McpEventBus#UNSOLICITED} set; a request that ends without a response (cancelled, or the session closed)
 * is signalled with {@link McpEventBus#ABANDONED}.
 *
 * <p>Undeploying the verticle closes the session: in-flight handlers see a cancellation.
 */
public class McpSessionVerticle extends VerticleBase {

  private final SessionVerticle session;

  /**
   * @param defaultOutbound where messages that belong to no request go
   * @param principal the session's owner, or null without authorization
   */
  public McpSessionVerticle(McpServer server, String sessionId, String defaultOutbound, Principal principal) {
    this(new SessionVerticle(server, sessionId, defaultOutbound, principal));
  }

  public McpSessionVerticle(McpServer server, String sessionId, String defaultOutbound) {
    this(server, sessionId, defaultOutbound, null);
  }

  private McpSessionVerticle(SessionVerticle session) {
    this.session = session;
  }

  /**
   * A verticle that takes over a stored session ({@link McpServer#restoreSession}) instead of starting a new one:
   * it serves requests at once, in the recorded state, owned by the recorded principal. Deploying it fails when the
   * record cannot be restored (a closed session, an unknown revision).
   */
  public static McpSessionVerticle restoring(McpServer server, SessionRecord record, String defaultOutbound) {
    Objects.requireNonNull(record, "record");
    return new McpSessionVerticle(SessionVerticle.restoring(server, record, defaultOutbound));
  }

  /** The session this verticle runs; null before start. Use it only on this verticle's context. */
  public McpSession session() {
    return session.session();
  }

  @Override
  public Future<?> start() throws Exception {
    session.init(vertx, context);
    return session.start();
  }

  /**
   * Waits, up to {@code timeoutMs}, for the requests being served to finish; used before a graceful close so
   * answers already on their way are not lost.
   */
  public Future<Void> drain(long timeoutMs) {
    return session.drain(timeoutMs);
  }

  @Override
  public Future<?> stop() throws Exception {
    return session.stop();
  }
}
