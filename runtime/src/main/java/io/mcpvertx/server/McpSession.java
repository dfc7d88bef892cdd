package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.client.ClientInfo;
import io.mcpvertx.server.client.LoggingLevel;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.spi.sessions.SessionStore;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.List;
import java.util.Optional;

/**
 * One client's session with the server, independent of the transport: it takes decoded JSON-RPC messages and
 * emits messages to {@link MessageSink}s.
 *
 * <p>A session is confined to the Vert.x context it was created on (a session verticle's event loop); calls
 * made from elsewhere are moved onto it.
 */
public interface McpSession {

  String id();

  SessionState state();

  /** The negotiated revision; empty before {@code initialize}. */
  Optional<ProtocolVersion> protocolVersion();

  /** The client's declaration; {@link ClientInfo#UNKNOWN} before {@code initialize}. */
  ClientInfo client();

  /** The level set by {@code logging/setLevel}; empty when the client never set one (everything is sent). */
  Optional<LoggingLevel> logLevel();

  /** Serves one message. Replies and everything emitted while serving a request go to {@code sink}. */
  void handle(JsonRpcMessage message, MessageSink sink);

  /**
   * Serves a JSON-RPC batch: allowed only when the negotiated revision allows batches, and never for
   * {@code initialize}. The responses go to {@code sink} as one {@link MessageSink#sendBatch} once all are in.
   */
  void handleBatch(List<Decoded> members, MessageSink sink);

  /**
   * What another instance needs to go on serving this session (see {@link SessionStore}).
   * Read it on the session's context, for instance from the {@link #onPersistentChange} handler.
   */
  SessionRecord snapshot();

  /**
   * Calls {@code handler} on the session's context whenever what {@link #snapshot()} returns changes
   * (initialization, the log level, resource subscriptions), so a transport can store it.
   */
  McpSession onPersistentChange(Handler<McpSession> handler);

  /** Number of client requests being served right now. */
  int inFlightRequests();

  /** Completes once no client request is being served (at once when none is), or when the session closes. */
  Future<Void> idle();

  /**
   * Closes the session: in-flight requests are cancelled (their handlers see the cancellation), pending
   * server-to-client requests fail, registry listeners are removed. Idempotent.
   */
  Future<Void> close();

  /**
   * Ends the tasks this session started whose handlers still run here, once the session itself has ended (call it
   * after {@link #close()}, before the session's context goes: the handlers' timers go with it). When the session
   * ended for good ({@code forGood}: deleted, expired) and its tasks belong to it (no principal), nobody can read
   * them again: they are cancelled at once. Otherwise the handlers run on, up to {@code timeoutMs}, so their
   * outcomes are stored for whoever owns the task (its principal, or the session where it goes on); the tasks still
   * running then are failed. {@code why} says how the session ended, in the tasks' status messages. Completes once
   * no handler of this session's tasks runs and those outcomes are stored.
   */
  Future<Void> endTasks(String why, boolean forGood, long timeoutMs);
}
