package io.mcpvertx.verticles.http;

import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Options of the Streamable HTTP endpoint. Defaults are safe for a local server: loopback bind, Host and Origin
 * checked against loopback names, bounded sessions, bodies, streams and replay.
 */
public class McpHttpServerOptions {

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 3000;
  public static final String DEFAULT_PATH = "/mcp";
  public static final ResponseMode DEFAULT_RESPONSE_MODE = ResponseMode.AUTO;
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
  public static final int DEFAULT_MAX_SESSIONS = 10_000;
  public static final long DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
  public static final int DEFAULT_MAX_SESSIONS_PER_CLIENT = 1_000;
  public static final long DEFAULT_INITIALIZE_TIMEOUT_MS = 10 * 1000;
  public static final int DEFAULT_MAX_CONNECTIONS = 4_096;
  public static final long DEFAULT_REQUEST_HEADER_TIMEOUT_MS = 10_000;
  public static final long DEFAULT_REQUEST_BODY_TIMEOUT_MS = 30_000;
  public static final long DEFAULT_CONNECTION_IDLE_TIMEOUT_MS = 60_000;
  public static final long DEFAULT_MAX_STREAM_DURATION_MS = 30 * 60 * 1000;
  public static final long DEFAULT_HEARTBEAT_INTERVAL_MS = 15_000;
  public static final long DEFAULT_SSE_RETRY_MS = 2_000;
  public static final int DEFAULT_MAX_STREAM_QUEUE_BYTES = 1024 * 1024;
  public static final String DEFAULT_HEALTH_LIVE_PATH = "/health/live";
  public static final String DEFAULT_HEALTH_READY_PATH = "/health/ready";
  public static final long DEFAULT_HEALTH_CHECK_TIMEOUT_MS = 2_000;
  public static final long DEFAULT_ENDED_SESSION_TASK_TIMEOUT_MS = 5 * 60 * 1000;

  private String host;
  private int port;
  private String path;
  private ResponseMode responseMode;
  private int maxBodyBytes;
  private int maxSessions;
  private long sessionIdleTimeoutMs;
  private int maxSessionsPerClient;
  private long initializeTimeoutMs;
  private int maxConnections;
  private long requestHeaderTimeoutMs;
  private long requestBodyTimeoutMs;
  private long connectionIdleTimeoutMs;
  private long maxStreamDurationMs;
  private long heartbeatIntervalMs;
  private long sseRetryMs;
  private boolean ssePolling;
  private int maxStreamQueueBytes;
  private List<String> allowedOrigins;
  private List<String> allowedHosts;
  private boolean cors;
  private McpAuthOptions auth;
  private String healthLivePath;
  private String healthReadyPath;
  private long healthCheckTimeoutMs;
  private long endedSessionTaskTimeoutMs;

  public McpHttpServerOptions() {
    host = DEFAULT_HOST;
    port = DEFAULT_PORT;
    path = DEFAULT_PATH;
    responseMode = DEFAULT_RESPONSE_MODE;
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    maxSessions = DEFAULT_MAX_SESSIONS;
    sessionIdleTimeoutMs = DEFAULT_SESSION_IDLE_TIMEOUT_MS;
    maxSessionsPerClient = DEFAULT_MAX_SESSIONS_PER_CLIENT;
    initializeTimeoutMs = DEFAULT_INITIALIZE_TIMEOUT_MS;
    maxConnections = DEFAULT_MAX_CONNECTIONS;
    requestHeaderTimeoutMs = DEFAULT_REQUEST_HEADER_TIMEOUT_MS;
    requestBodyTimeoutMs = DEFAULT_REQUEST_BODY_TIMEOUT_MS;
    connectionIdleTimeoutMs = DEFAULT_CONNECTION_IDLE_TIMEOUT_MS;
    maxStreamDurationMs = DEFAULT_MAX_STREAM_DURATION_MS;
    heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
    sseRetryMs = DEFAULT_SSE_RETRY_MS;
    maxStreamQueueBytes = DEFAULT_MAX_STREAM_QUEUE_BYTES;
    allowedOrigins = new ArrayList<>();
    allowedHosts = new ArrayList<>();
    auth = new McpAuthOptions();
    healthLivePath = DEFAULT_HEALTH_LIVE_PATH;
    healthReadyPath = DEFAULT_HEALTH_READY_PATH;
    healthCheckTimeoutMs = DEFAULT_HEALTH_CHECK_TIMEOUT_MS;
    endedSessionTaskTimeoutMs = DEFAULT_ENDED_SESSION_TASK_TIMEOUT_MS;
  }

  public McpHttpServerOptions(McpHttpServerOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public McpHttpServerOptions(JsonObject json) {
    this();
    setHost(json.getString("host", host));
    setPort(json.getInteger("port", port));
    setPath(json.getString("path", path));
    setResponseMode(ResponseMode.valueOf(json.getString("responseMode", responseMode.name())));
    setMaxBodyBytes(json.getInteger("maxBodyBytes", maxBodyBytes));
    setMaxSessions(json.getInteger("maxSessions", maxSessions));
    setSessionIdleTimeoutMs(json.getLong("sessionIdleTimeoutMs", sessionIdleTimeoutMs));
    setMaxSessionsPerClient(json.getInteger("maxSessionsPerClient", maxSessionsPerClient));
    setInitializeTimeoutMs(json.getLong("initializeTimeoutMs", initializeTimeoutMs));
    setMaxConnections(json.getInteger("maxConnections", maxConnections));
    setRequestHeaderTimeoutMs(json.getLong("requestHeaderTimeoutMs", requestHeaderTimeoutMs));
    setRequestBodyTimeoutMs(json.getLong("requestBodyTimeoutMs", requestBodyTimeoutMs));
    setConnectionIdleTimeoutMs(json.getLong("connectionIdleTimeoutMs", connectionIdleTimeoutMs));
    setMaxStreamDurationMs(json.getLong("maxStreamDurationMs", maxStreamDurationMs));
    setHeartbeatIntervalMs(json.getLong("heartbeatIntervalMs", heartbeatIntervalMs));
    setSseRetryMs(json.getLong("sseRetryMs", sseRetryMs));
    setSsePolling(json.getBoolean("ssePolling", ssePolling));
    setMaxStreamQueueBytes(json.getInteger("maxStreamQueueBytes", maxStreamQueueBytes));
    setAllowedOrigins(strings(json.getJsonArray("allowedOrigins"), allowedOrigins));
    setAllowedHosts(strings(json.getJsonArray("allowedHosts"), allowedHosts));
    setCors(json.getBoolean("cors", cors));
    setAuth(new McpAuthOptions(json.getJsonObject("auth", new JsonObject())));
    setHealthLivePath(json.getString("healthLivePath", healthLivePath));
    setHealthReadyPath(json.getString("healthReadyPath", healthReadyPath));
    setHealthCheckTimeoutMs(json.getLong("healthCheckTimeoutMs", healthCheckTimeoutMs));
    setEndedSessionTaskTimeoutMs(json.getLong("endedSessionTaskTimeoutMs", endedSessionTaskTimeoutMs));
  }

  private static List<String> strings(JsonArray array, List<String> absent) {
    if (array == null) {
      return absent;
    }
    List<String> list = new ArrayList<>();
    array.forEach(value -> list.add(String.valueOf(value)));
    return list;
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("host", host).put("port", port).put("path", path).put("responseMode", responseMode.name())
        .put("maxBodyBytes", maxBodyBytes).put("maxSessions", maxSessions)
        .put("sessionIdleTimeoutMs", sessionIdleTimeoutMs).put("initializeTimeoutMs", initializeTimeoutMs)
        .put("maxSessionsPerClient", maxSessionsPerClient).put("maxConnections", maxConnections)
        .put("requestHeaderTimeoutMs", requestHeaderTimeoutMs).put("requestBodyTimeoutMs", requestBodyTimeoutMs)
        .put("connectionIdleTimeoutMs", connectionIdleTimeoutMs).put("maxStreamDurationMs", maxStreamDurationMs)
        .put("heartbeatIntervalMs", heartbeatIntervalMs).put("sseRetryMs", sseRetryMs).put("ssePolling", ssePolling)
        .put("maxStreamQueueBytes", maxStreamQueueBytes)
        .put("allowedOrigins", new JsonArray(new ArrayList<>(allowedOrigins)))
        .put("allowedHosts", new JsonArray(new ArrayList<>(allowedHosts)))
        .put("cors", cors)
        .put("auth", auth.toJson())
        .put("healthLivePath", healthLivePath).put("healthReadyPath", healthReadyPath)
        .put("healthCheckTimeoutMs", healthCheckTimeoutMs)
        .put("endedSessionTaskTimeoutMs", endedSessionTaskTimeoutMs);
  }

  public String getHost() {
    return host;
  }

  /** The address to bind; loopback by default. Binding anything else should come with auth and allowlists. */
  public McpHttpServerOptions setHost(String host) {
    this.host = Objects.requireNonNull(host, "host");
    return this;
  }

  public int getPort() {
    return port;
  }

  /** The port; 0 picks a free one (see {@link McpHttpServer#actualPort()}). */
  public McpHttpServerOptions setPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0-65535");
    }
    this.port = port;
    return this;
  }

  public String getPath() {
    return path;
  }

  public McpHttpServerOptions setPath(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with /");
    }
    this.path = path;
    return this;
  }

  public ResponseMode getResponseMode() {
    return responseMode;
  }

  public McpHttpServerOptions setResponseMode(ResponseMode responseMode) {
    this.responseMode = Objects.requireNonNull(responseMode, "responseMode");
    return this;
  }

  public int getMaxBodyBytes() {
    return maxBodyBytes;
  }

  /** Larger POST bodies get 413 before they are parsed. */
  public McpHttpServerOptions setMaxBodyBytes(int maxBodyBytes) {
    this.maxBodyBytes = positive(maxBodyBytes, "maxBodyBytes");
    return this;
  }

  public int getMaxSessions() {
    return maxSessions;
  }

  /** Sessions alive at once; an initialize beyond it gets 503 with {@code Retry-After}. */
  public McpHttpServerOptions setMaxSessions(int maxSessions) {
    this.maxSessions = positive(maxSessions, "maxSessions");
    return this;
  }

  public long getSessionIdleTimeoutMs() {
    return sessionIdleTimeoutMs;
  }

  /** A session with no request for this long expires; later requests for it get 404. */
  public McpHttpServerOptions setSessionIdleTimeoutMs(long sessionIdleTimeoutMs) {
    this.sessionIdleTimeoutMs = positive(sessionIdleTimeoutMs, "sessionIdleTimeoutMs");
    return this;
  }

  public long getInitializeTimeoutMs() {
    return initializeTimeoutMs;
  }

  /**
   * A session that has not sent {@code notifications/initialized} this long after {@code initialize} expires, so
   * a flood of bare initializes cannot hold the session slots for long.
   */
  public McpHttpServerOptions setInitializeTimeoutMs(long initializeTimeoutMs) {
    this.initializeTimeoutMs = positive(initializeTimeoutMs, "initializeTimeoutMs");
    return this;
  }

  public int getMaxSessionsPerClient() {
    return maxSessionsPerClient;
  }

  /**
   * How many sessions one client may hold at once: one principal when authorization is on, else one remote address
   * (behind a reverse proxy every client shares the proxy's address: raise this, or turn authorization on). Past
   * it, an {@code initialize} is answered like one past {@link #setMaxSessions the endpoint's limit}.
   */
  public McpHttpServerOptions setMaxSessionsPerClient(int maxSessionsPerClient) {
    this.maxSessionsPerClient = positive(maxSessionsPerClient, "maxSessionsPerClient");
    return this;
  }

  public int getMaxConnections() {
    return maxConnections;
  }

  /** How many connections the endpoint holds at once, over all its verticles; one past it is closed at once. */
  public McpHttpServerOptions setMaxConnections(int maxConnections) {
    this.maxConnections = positive(maxConnections, "maxConnections");
    return this;
  }

  public long getRequestHeaderTimeoutMs() {
    return requestHeaderTimeoutMs;
  }

  /** A new connection that has not sent a whole request head this long after it opened is closed (slowloris). */
  public McpHttpServerOptions setRequestHeaderTimeoutMs(long requestHeaderTimeoutMs) {
    this.requestHeaderTimeoutMs = positive(requestHeaderTimeoutMs, "requestHeaderTimeoutMs");
    return this;
  }

  public long getRequestBodyTimeoutMs() {
    return requestBodyTimeoutMs;
  }

  /** A request whose body has not all arrived this long after its head is answered 408 and its connection closed. */
  public McpHttpServerOptions setRequestBodyTimeoutMs(long requestBodyTimeoutMs) {
    this.requestBodyTimeoutMs = positive(requestBodyTimeoutMs, "requestBodyTimeoutMs");
    return this;
  }

  public long getConnectionIdleTimeoutMs() {
    return connectionIdleTimeoutMs;
  }

  /**
   * A connection with no request in progress (and so no stream open) this long is closed. A connection carrying an
   * SSE stream is not idle: it is bounded by {@link #setMaxStreamDurationMs} instead, and its heartbeats (keep
   * {@link #setHeartbeatIntervalMs} below this) show it alive. This is also how long a connection may carry no
   * byte either way before it is closed whatever it is doing: that closes sockets that never send a byte (which
   * the server cannot tell apart as HTTP/1 or h2c, and so sees as no connection), and it cuts an answer sent as
   * JSON that takes longer than this to start; such calls should stream their progress or run as tasks.
   */
  public McpHttpServerOptions setConnectionIdleTimeoutMs(long connectionIdleTimeoutMs) {
    this.connectionIdleTimeoutMs = positive(connectionIdleTimeoutMs, "connectionIdleTimeoutMs");
    return this;
  }

  public long getMaxStreamDurationMs() {
    return maxStreamDurationMs;
  }

  /**
   * An SSE stream (a GET stream, a {@code subscriptions/listen} stream, a POST answered with events) is cut this
   * long after its request arrived; the client resumes it (with {@code Last-Event-ID}) or listens again.
   */
  public McpHttpServerOptions setMaxStreamDurationMs(long maxStreamDurationMs) {
    this.maxStreamDurationMs = positive(maxStreamDurationMs, "maxStreamDurationMs");
    return this;
  }

  public long getHeartbeatIntervalMs() {
    return heartbeatIntervalMs;
  }

  /** SSE comment lines sent this often on idle streams, so proxies do not cut them. */
  public McpHttpServerOptions setHeartbeatIntervalMs(long heartbeatIntervalMs) {
    this.heartbeatIntervalMs = positive(heartbeatIntervalMs, "heartbeatIntervalMs");
    return this;
  }

  public long getSseRetryMs() {
    return sseRetryMs;
  }

  /** The {@code retry:} a 2025-11-25 client is given before the server closes a stream it should resume. */
  public McpHttpServerOptions setSseRetryMs(long sseRetryMs) {
    this.sseRetryMs = positive(sseRetryMs, "sseRetryMs");
    return this;
  }

  public boolean isSsePolling() {
    return ssePolling;
  }

  /**
   * SSE polling (2025-11-25): close each POST stream right after its priming event, with {@code retry:}, and let
   * the client collect the rest with {@code GET} and {@code Last-Event-ID}. Frees connections during long calls.
   */
  public McpHttpServerOptions setSsePolling(boolean ssePolling) {
    this.ssePolling = ssePolling;
    return this;
  }

  public int getMaxStreamQueueBytes() {
    return maxStreamQueueBytes;
  }

  /**
   * Bytes an SSE stream may have waiting for a slow reader. Past it the stream is closed; everything is in the
   * event store, so the client resumes with {@code Last-Event-ID} and loses nothing.
   */
  public McpHttpServerOptions setMaxStreamQueueBytes(int maxStreamQueueBytes) {
    this.maxStreamQueueBytes = positive(maxStreamQueueBytes, "maxStreamQueueBytes");
    return this;
  }

  public List<String> getAllowedOrigins() {
    return allowedOrigins;
  }

  /**
   * Origins ({@code scheme://host[:port]}) allowed to call the endpoint from a browser. When empty, only loopback
   * origins are allowed. A request without {@code Origin} (not from a browser) is not affected.
   */
  public McpHttpServerOptions setAllowedOrigins(List<String> allowedOrigins) {
    this.allowedOrigins = new ArrayList<>(allowedOrigins);
    return this;
  }

  public List<String> getAllowedHosts() {
    return allowedHosts;
  }

  /**
   * Host names (without port) a request's {@code Host} may name. When empty and bound to loopback, only loopback
   * names are allowed (DNS-rebinding protection); when empty and bound elsewhere, any host is allowed.
   */
  public McpHttpServerOptions setAllowedHosts(List<String> allowedHosts) {
    this.allowedHosts = new ArrayList<>(allowedHosts);
    return this;
  }

  public boolean isCors() {
    return cors;
  }

  /**
   * Answer CORS preflights and add CORS headers for allowed origins, exposing {@code Mcp-Session-Id} and allowing
   * the MCP request headers and {@code Last-Event-ID}.
   */
  public McpHttpServerOptions setCors(boolean cors) {
    this.cors = cors;
    return this;
  }

  public McpAuthOptions getAuth() {
    return auth;
  }

  /**
   * OAuth 2.1 authorization of the endpoint (off by default): bearer tokens checked on every request, sessions
   * bound to their principal, protected resource metadata served. See {@link McpAuthOptions}.
   */
  public McpHttpServerOptions setAuth(McpAuthOptions auth) {
    this.auth = new McpAuthOptions(auth);
    return this;
  }

  public String getHealthLivePath() {
    return healthLivePath;
  }

  /**
   * Where {@code GET} answers 200 {@code {"status":"UP"}} while the server runs (a liveness probe); null turns it
   * off. Served before auth and the Host and Origin checks, so an orchestrator's probe needs neither.
   */
  public McpHttpServerOptions setHealthLivePath(String healthLivePath) {
    this.healthLivePath = optionalPath(healthLivePath, "healthLivePath");
    return this;
  }

  public String getHealthReadyPath() {
    return healthReadyPath;
  }

  /**
   * Where {@code GET} answers 200 when every store the server uses answers (a readiness probe), and 503 with
   * each failed check's reason when one does not; null turns it off. Served like the liveness path.
   */
  public McpHttpServerOptions setHealthReadyPath(String healthReadyPath) {
    this.healthReadyPath = optionalPath(healthReadyPath, "healthReadyPath");
    return this;
  }

  public long getHealthCheckTimeoutMs() {
    return healthCheckTimeoutMs;
  }

  /** How long one readiness check may take before it counts as failed. */
  public McpHttpServerOptions setHealthCheckTimeoutMs(long healthCheckTimeoutMs) {
    this.healthCheckTimeoutMs = positive(healthCheckTimeoutMs, "healthCheckTimeoutMs");
    return this;
  }

  public long getEndedSessionTaskTimeoutMs() {
    return endedSessionTaskTimeoutMs;
  }

  /**
   * How long the handlers of a 2025-11-25 session's tasks may run on after their session ended other than by a
   * graceful hand-over (its owner's claim lost, or, for tasks of an authenticated principal, deleted or expired):
   * their outcomes are stored for the task's owner; those still running after it are failed. Tasks that belonged
   * to a session deleted or expired for good are cancelled at once instead.
   */
  public McpHttpServerOptions setEndedSessionTaskTimeoutMs(long endedSessionTaskTimeoutMs) {
    this.endedSessionTaskTimeoutMs = positive(endedSessionTaskTimeoutMs, "endedSessionTaskTimeoutMs");
    return this;
  }

  private static String optionalPath(String path, String name) {
    if (path != null && !path.startsWith("/")) {
      throw new IllegalArgumentException(name + " must start with /");
    }
    return path;
  }

  private static int positive(int value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }

  private static long positive(long value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }
}
