package io.mcpvertx.verticles.http.impl.session;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.SessionState;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.impl.SessionVerticle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the HTTP transport knows about one session, shared by the HTTP verticles of this JVM: thread-safe, its
 * fields written through its methods only. The session's protocol state proper lives in its session verticle.
 *
 * <p>Its {@link State} only moves forward: {@code AWAITING_INITIALIZED → READY}, and from either to one of the two
 * closed states, once.
 */
public final class HttpSession {

  private static final Logger LOG = LoggerFactory.getLogger(HttpSession.class);

  /** Where a session is in its life, as the HTTP transport sees it. */
  public enum State {
    /** Created; {@code notifications/initialized} has not arrived (the sweeper ends it if it never does). */
    AWAITING_INITIALIZED,
    /** Initialized and in use. */
    READY,
    /** Ended here; requests still waiting for answers get none. */
    CLOSED,
    /**
     * Ended here because the instance serving it stopped (or is stopping): requests still waiting are answered
     * with an error that tells the client to send them again, as the session goes on elsewhere.
     */
    OWNER_LOST;

    boolean isClosed() {
      return this == CLOSED || this == OWNER_LOST;
    }
  }

  /**
   * The stream id of the session's standalone GET stream in the event store: the same for every session and on
   * every instance, so an instance that restored the session resumes and goes on with the same stream.
   */
  public static final String STANDALONE_STREAM = "g";

  private final String id;
  /** The key of the principal that created the session ({@link Principal#key()}); null without auth. */
  private final String owner;
  /**
   * Clustered: the instance whose session verticle serves this session, when that is another instance; null when
   * the session runs here. A remote session is only a route: requests go to its verticle over the clustered event
   * bus, and ending it here ends nothing but the route.
   */
  private final String ownerInstance;
  private final long createdAt;
  private final AtomicReference<State> state;
  private volatile long lastAccess;
  private volatile ProtocolVersion version;
  private volatile String deploymentId;
  /** The verticle running the session in this JVM, once deployed; null for a route to another instance. */
  private volatile SessionVerticle verticle;
  /**
   * Streams a GET is delivering now (the standalone stream, or resumed ones). One GET per stream, as the spec
   * allows a message on one stream only: two GETs following one stream would each write every live event.
   */
  private final Set<String> followed = ConcurrentHashMap.newKeySet();
  /** Streams to end when the session closes; each closer moves to its own context. */
  private final Map<Object, Runnable> closers = new ConcurrentHashMap<>();
  /** With a shared session store: the newest record of the session, and whether the store has it. */
  private volatile SessionRecord record;
  private volatile boolean recordWritten;
  /** With a shared session store: when the record was last written or its lifetime extended (epoch ms). */
  private volatile long storeTouchedAt;

  private HttpSession(String id, String owner, String ownerInstance, long now, State state) {
    this.id = id;
    this.owner = owner;
    this.ownerInstance = ownerInstance;
    this.createdAt = now;
    this.lastAccess = now;
    this.storeTouchedAt = now;
    this.state = new AtomicReference<>(state);
  }

  /** A new session, created here by {@code initialize}. */
  static HttpSession created(String id, String owner, long now) {
    return new HttpSession(id, owner, null, now, State.AWAITING_INITIALIZED);
  }

  /**
   * A session known from its stored record, for a request of {@code caller}: run here ({@code ownerInstance}
   * null) or routed to the instance that runs it. Null when the caller may not use it (another principal's, which
   * is answered as an unknown session) or the record is unusable.
   */
  public static HttpSession fromRecord(SessionRecord record, Principal caller, long now, String ownerInstance) {
    String owner;
    ProtocolVersion version;
    try {
      owner = record.principal() == null ? null : Principal.fromJson(record.principal()).key();
      version = record.protocolVersion() == null ? null : ProtocolVersion.fromId(record.protocolVersion())
          .orElseThrow(() -> new IllegalArgumentException("unknown protocol version " + record.protocolVersion()));
    } catch (RuntimeException e) {
      LOG.atWarn().log(() -> "Session " + record.sessionId() + ": its stored record is unusable: " + e);
      return null;
    }
    if (!Objects.equals(owner, caller == null ? null : caller.key())) {
      LOG.atWarn().log(() -> "Refused " + (caller == null ? "an anonymous caller" : caller.key())
          + " the stored session of another principal");
      return null;
    }
    State state = SessionState.AWAITING_INITIALIZED.name().equals(record.state()) ? State.AWAITING_INITIALIZED
        : State.READY;
    HttpSession session = new HttpSession(record.sessionId(), owner, ownerInstance, now, state);
    session.version = version;
    session.record = record;
    session.recordWritten = true;
    if (ownerInstance == null) {
      session.storeTouchedAt = 0; // the request that restores it extends its lifetime
    }
    return session;
  }

  public String id() {
    return id;
  }

  /**
   * Whether a request by {@code principal} may use the session: only its owner's, identified by issuer and subject,
   * so a refreshed token of the same caller keeps working and nobody else's does. Without auth both are null.
   */
  public boolean ownedBy(Principal principal) {
    return Objects.equals(owner, principal == null ? null : principal.key());
  }

  /** Whether the session's verticle runs on another instance. */
  public boolean remote() {
    return ownerInstance != null;
  }

  /** The instance running a remote session; null when it runs here. */
  public String ownerInstance() {
    return ownerInstance;
  }

  public State state() {
    return state.get();
  }

  public boolean isClosed() {
    return state.get().isClosed();
  }

  /** {@code notifications/initialized} arrived. */
  public void initialized() {
    state.compareAndSet(State.AWAITING_INITIALIZED, State.READY);
  }

  /**
   * Closes the session, as {@link State#OWNER_LOST} when {@code ownerLost}; false when it was closed already.
   */
  boolean close(boolean ownerLost) {
    State closed = ownerLost ? State.OWNER_LOST : State.CLOSED;
    while (true) {
      State now = state.get();
      if (now.isClosed()) {
        return false;
      }
      if (state.compareAndSet(now, closed)) {
        return true;
      }
    }
  }

  long createdAt() {
    return createdAt;
  }

  long lastAccess() {
    return lastAccess;
  }

  void touch() {
    lastAccess = System.currentTimeMillis();
  }

  /** The revision the session speaks; null until {@code initialize} is answered. */
  public ProtocolVersion version() {
    return version;
  }

  /** {@code initialize} was answered with this revision. */
  public void version(ProtocolVersion version) {
    this.version = version;
  }

  String deploymentId() {
    return deploymentId;
  }

  /**
   * The session's verticle in this JVM, to hand it messages without the event bus ({@link SessionVerticle#deliver});
   * null while it is being deployed and for a route to another instance.
   */
  public SessionVerticle verticle() {
    return verticle;
  }

  void deployed(String deploymentId, SessionVerticle verticle) {
    this.verticle = verticle;
    this.deploymentId = deploymentId;
  }

  /** Claims a stream for one GET; false when another GET delivers it already. */
  public boolean follow(String streamId) {
    return followed.add(streamId);
  }

  public void unfollow(String streamId) {
    followed.remove(streamId);
  }

  /** Runs {@code closer} when the session closes (at once if it has). */
  public void onClose(Object key, Runnable closer) {
    closers.put(key, closer);
  }

  public void removeOnClose(Object key) {
    closers.remove(key);
  }

  void runClosers() {
    List<Runnable> all = new ArrayList<>(closers.values());
    closers.clear();
    all.forEach(Runnable::run);
  }

  // ---- the stored record (shared session store) ----

  SessionRecord record() {
    return record;
  }

  boolean recordWritten() {
    return recordWritten;
  }

  /** A newer record is being written. */
  void recordWriting(SessionRecord newer) {
    record = newer;
    recordWritten = false;
  }

  /** {@code written} is in the store; it is the session's record unless a newer one came meanwhile. */
  void recordStored(SessionRecord written) {
    if (record == written) {
      recordWritten = true;
    }
  }

  /**
   * Whether the store (or, for a remote session, its owner) should hear of use now: true, and the time noted, when
   * {@code intervalMs} has passed since it last did.
   */
  public boolean storeTouchDue(long now, long intervalMs) {
    if (now - storeTouchedAt < intervalMs) {
      return false;
    }
    storeTouchedAt = now;
    return true;
  }

  void storeTouched(long at) {
    storeTouchedAt = at;
  }

  /** Event-bus address where the session verticle sends what belongs to no request. */
  public String mailboxAddress() {
    return "mcp.http.mailbox." + id;
  }

  /** Event-bus address where live events of one of this session's streams are published to resuming clients. */
  public String liveAddress(String streamId) {
    return "mcp.http.live." + id + "." + streamId;
  }
}
