package io.mcpvertx.verticles.http.impl;

import io.mcpvertx.protocol.ProtocolVersion;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the HTTP layer knows about one session, shared by the HTTP verticles of this JVM (so fields are volatile
 * or atomic). The session's state proper lives in its session verticle.
 */
final class HttpSession {

  final String id;
  /** The key of the principal that created the session ({@link io.mcpvertx.server.Principal#key()}); null without auth. */
  final String owner;
  /**
   * The stream id of the session's standalone GET stream in the event store: the same for every session and on
   * every instance, so an instance that restored the session resumes and goes on with the same stream.
   */
  final String standaloneStream = STANDALONE_STREAM;
  final long createdAt;
  volatile long lastAccess;
  volatile boolean initialized;
  volatile ProtocolVersion version;
  volatile String deploymentId;
  /**
   * Streams a GET is delivering now (the standalone stream, or resumed ones). One GET per stream, as the spec
   * allows a message on one stream only: two GETs following one stream would each write every live event.
   */
  final Set<String> followed = ConcurrentHashMap.newKeySet();
  final AtomicBoolean closed = new AtomicBoolean();
  /** Streams to end when the session closes; each closer moves to its own context. */
  final Map<Object, Runnable> closers = new ConcurrentHashMap<>();
  /** With a shared session store: the newest record of the session, and whether the store has it. */
  volatile io.mcpvertx.spi.sessions.SessionRecord record;
  volatile boolean recordWritten;
  /** With a shared session store: when the record was last written or its lifetime extended (epoch ms). */
  volatile long storeTouchedAt;
  /**
   * Clustered: the instance whose session verticle serves this session, when that is another instance; null when
   * the session runs here. A remote session is only a route: requests go to its verticle over the clustered event
   * bus, and ending it here ends nothing but the route.
   */
  final String ownerInstance;
  /**
   * The instance serving the session stopped: requests still waiting for answers are answered with an error that
   * tells the client to send them again (the session itself moves to another instance on its next request).
   */
  volatile boolean ownerLost;

  static final String STANDALONE_STREAM = "g";

  HttpSession(String id, String owner, long now) {
    this(id, owner, now, null);
  }

  HttpSession(String id, String owner, long now, String ownerInstance) {
    this.ownerInstance = ownerInstance;
    this.id = id;
    this.owner = owner;
    this.createdAt = now;
    this.lastAccess = now;
    this.storeTouchedAt = now;
  }

  /**
   * Whether a request by {@code principal} may use the session: only its owner's, identified by issuer and subject,
   * so a refreshed token of the same caller keeps working and nobody else's does. Without auth both are null.
   */
  boolean ownedBy(io.mcpvertx.server.Principal principal) {
    return java.util.Objects.equals(owner, principal == null ? null : principal.key());
  }

  /** Whether the session's verticle runs on another instance. */
  boolean remote() {
    return ownerInstance != null;
  }

  void touch() {
    lastAccess = System.currentTimeMillis();
  }

  /** Event-bus address where the session verticle sends what belongs to no request. */
  String mailboxAddress() {
    return "mcp.http.mailbox." + id;
  }

  /** Event-bus address where live events of one of this session's streams are published to resuming clients. */
  String liveAddress(String streamId) {
    return "mcp.http.live." + id + "." + streamId;
  }
}
