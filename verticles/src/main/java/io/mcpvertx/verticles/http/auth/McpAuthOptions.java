package io.mcpvertx.verticles.http.auth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Authorization of the Streamable HTTP endpoint: the mode, the authorization server, this server's resource URI
 * (the audience every token must name) and the scopes requests need.
 *
 * <p>Off by default. With {@link AuthMode#JWT} or {@link AuthMode#INTROSPECTION}, {@link #setIssuer issuer} and
 * {@link #setResource resource} are required; endpoints not configured are found by discovery (RFC 8414 or OpenID
 * Connect), once, when the server starts. Authorization-server URLs must be {@code https} unless they name a
 * loopback host.
 */
public class McpAuthOptions {

  public static final AuthMode DEFAULT_MODE = AuthMode.OFF;
  public static final int DEFAULT_CLOCK_SKEW_SECONDS = 30;
  public static final int MAX_CLOCK_SKEW_SECONDS = 300;
  public static final long DEFAULT_JWKS_REFRESH_MIN_INTERVAL_MS = 30_000;
  public static final long DEFAULT_JWKS_MAX_AGE_SECONDS = 3_600;
  public static final long DEFAULT_HTTP_TIMEOUT_MS = 5_000;
  /** Asymmetric JWS algorithms; never {@code none}, never a shared-secret HMAC. */
  public static final List<String> DEFAULT_ALGORITHMS = List.of("RS256", "RS384", "RS512", "PS256", "PS384",
      "PS512", "ES256", "ES384", "ES512", "EdDSA");

  private AuthMode mode;
  private String issuer;
  private String discoveryUrl;
  private String jwksUrl;
  private String introspectionUrl;
  private String clientId;
  private String clientSecret;
  private String resource;
  private String resourceName;
  private int clockSkewSeconds;
  private List<String> requiredScopes;
  private Map<String, List<String>> methodScopes;
  private Map<String, List<String>> toolScopes;
  private List<String> scopesSupported;
  private boolean serveAuthorizationServerMetadata;
  private long jwksRefreshMinIntervalMs;
  private long jwksMaxAgeSeconds;
  private long httpTimeoutMs;
  private List<String> algorithms;

  public McpAuthOptions() {
    mode = DEFAULT_MODE;
    clockSkewSeconds = DEFAULT_CLOCK_SKEW_SECONDS;
    requiredScopes = new ArrayList<>();
    methodScopes = new LinkedHashMap<>();
    toolScopes = new LinkedHashMap<>();
    scopesSupported = new ArrayList<>();
    jwksRefreshMinIntervalMs = DEFAULT_JWKS_REFRESH_MIN_INTERVAL_MS;
    jwksMaxAgeSeconds = DEFAULT_JWKS_MAX_AGE_SECONDS;
    httpTimeoutMs = DEFAULT_HTTP_TIMEOUT_MS;
    algorithms = new ArrayList<>(DEFAULT_ALGORITHMS);
  }

  public McpAuthOptions(McpAuthOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public McpAuthOptions(JsonObject json) {
    this();
    setMode(AuthMode.valueOf(json.getString("mode", mode.name()).toUpperCase(Locale.ROOT)));
    setIssuer(json.getString("issuer", issuer));
    setDiscoveryUrl(json.getString("discoveryUrl", discoveryUrl));
    setJwksUrl(json.getString("jwksUrl", jwksUrl));
    setIntrospectionUrl(json.getString("introspectionUrl", introspectionUrl));
    setClientId(json.getString("clientId", clientId));
    setClientSecret(json.getString("clientSecret", clientSecret));
    setResource(json.getString("resource", resource));
    setResourceName(json.getString("resourceName", resourceName));
    setClockSkewSeconds(json.getInteger("clockSkewSeconds", clockSkewSeconds));
    setRequiredScopes(strings(json.getJsonArray("requiredScopes"), requiredScopes));
    setMethodScopes(scopeMap(json.getJsonObject("methodScopes"), methodScopes));
    setToolScopes(scopeMap(json.getJsonObject("toolScopes"), toolScopes));
    setScopesSupported(strings(json.getJsonArray("scopesSupported"), scopesSupported));
    setServeAuthorizationServerMetadata(json.getBoolean("serveAuthorizationServerMetadata",
        serveAuthorizationServerMetadata));
    setJwksRefreshMinIntervalMs(json.getLong("jwksRefreshMinIntervalMs", jwksRefreshMinIntervalMs));
    setJwksMaxAgeSeconds(json.getLong("jwksMaxAgeSeconds", jwksMaxAgeSeconds));
    setHttpTimeoutMs(json.getLong("httpTimeoutMs", httpTimeoutMs));
    setAlgorithms(strings(json.getJsonArray("algorithms"), algorithms));
  }

  private static List<String> strings(JsonArray array, List<String> absent) {
    if (array == null) {
      return absent;
    }
    List<String> list = new ArrayList<>();
    array.forEach(value -> list.add(String.valueOf(value)));
    return list;
  }

  private static Map<String, List<String>> scopeMap(JsonObject json, Map<String, List<String>> absent) {
    if (json == null) {
      return absent;
    }
    Map<String, List<String>> map = new LinkedHashMap<>();
    json.forEach(e -> map.put(e.getKey(), strings((JsonArray) e.getValue(), List.of())));
    return map;
  }

  private static JsonObject scopeJson(Map<String, List<String>> map) {
    JsonObject json = new JsonObject();
    map.forEach((key, scopes) -> json.put(key, new JsonArray(new ArrayList<>(scopes))));
    return json;
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("mode", mode.name());
    putIfSet(json, "issuer", issuer);
    putIfSet(json, "discoveryUrl", discoveryUrl);
    putIfSet(json, "jwksUrl", jwksUrl);
    putIfSet(json, "introspectionUrl", introspectionUrl);
    putIfSet(json, "clientId", clientId);
    putIfSet(json, "clientSecret", clientSecret);
    putIfSet(json, "resource", resource);
    putIfSet(json, "resourceName", resourceName);
    return json.put("clockSkewSeconds", clockSkewSeconds)
        .put("requiredScopes", new JsonArray(new ArrayList<>(requiredScopes)))
        .put("methodScopes", scopeJson(methodScopes))
        .put("toolScopes", scopeJson(toolScopes))
        .put("scopesSupported", new JsonArray(new ArrayList<>(scopesSupported)))
        .put("serveAuthorizationServerMetadata", serveAuthorizationServerMetadata)
        .put("jwksRefreshMinIntervalMs", jwksRefreshMinIntervalMs)
        .put("jwksMaxAgeSeconds", jwksMaxAgeSeconds)
        .put("httpTimeoutMs", httpTimeoutMs)
        .put("algorithms", new JsonArray(new ArrayList<>(algorithms)));
  }

  private static void putIfSet(JsonObject json, String key, String value) {
    if (value != null) {
      json.put(key, value);
    }
  }

  /**
   * Checks that the options can run: nothing to check when off; otherwise an issuer, an absolute resource URI
   * without fragment, client credentials for introspection, and {@code https} for authorization-server URLs that
   * do not name a loopback host.
   *
   * @throws IllegalStateException naming what is wrong
   */
  public McpAuthOptions validate() {
    if (mode == AuthMode.OFF) {
      return this;
    }
    if (issuer == null) {
      throw new IllegalStateException("auth: an issuer is required in mode " + mode);
    }
    if (resource == null) {
      throw new IllegalStateException("auth: the resource URI (the audience tokens must name) is required");
    }
    URI uri = parse(resource, "resource");
    if (uri.getScheme() == null || uri.getHost() == null || uri.getFragment() != null) {
      throw new IllegalStateException("auth: the resource must be an absolute URI without fragment: " + resource);
    }
    for (String url : new String[] {issuer, discoveryUrl, jwksUrl, introspectionUrl}) {
      if (url != null) {
        requireSecure(url);
      }
    }
    if (mode == AuthMode.INTROSPECTION && (clientId == null || clientSecret == null)) {
      throw new IllegalStateException("auth: introspection needs the resource server's clientId and clientSecret");
    }
    if (algorithms.isEmpty()) {
      throw new IllegalStateException("auth: at least one JWS algorithm must be allowed");
    }
    return this;
  }

  private static URI parse(String value, String what) {
    try {
      return new URI(value);
    } catch (Exception e) {
      throw new IllegalStateException("auth: " + what + " is not a URI: " + value);
    }
  }

  private static void requireSecure(String url) {
    URI uri = parse(url, "authorization-server URL");
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    // Literals only: a DNS name that merely starts with "127." can point anywhere.
    boolean loopback = host.equals("localhost") || host.equals("[::1]") || host.matches("127(\\.[0-9]{1,3}){3}");
    if (!scheme.equals("https") && !(scheme.equals("http") && loopback)) {
      throw new IllegalStateException("auth: authorization-server URLs must use https (http only on loopback): "
          + url);
    }
  }

  public AuthMode getMode() {
    return mode;
  }

  public McpAuthOptions setMode(AuthMode mode) {
    this.mode = Objects.requireNonNull(mode, "mode");
    return this;
  }

  /** Whether requests are authenticated (any mode but {@link AuthMode#OFF}). */
  public boolean isEnabled() {
    return mode != AuthMode.OFF;
  }

  public String getIssuer() {
    return issuer;
  }

  /**
   * The authorization server's issuer identifier. Tokens must carry exactly this {@code iss} (introspection
   * results that name an issuer too); it is listed in the protected resource metadata.
   */
  public McpAuthOptions setIssuer(String issuer) {
    this.issuer = issuer;
    return this;
  }

  public String getDiscoveryUrl() {
    return discoveryUrl;
  }

  /**
   * Where the authorization server's metadata is. When not set, the well-known locations of the issuer are tried
   * in the order MCP clients use: RFC 8414 with path insertion, OpenID Connect with path insertion, OpenID Connect
   * with path appending. The document must name {@link #getIssuer() the issuer}.
   */
  public McpAuthOptions setDiscoveryUrl(String discoveryUrl) {
    this.discoveryUrl = discoveryUrl;
    return this;
  }

  public String getJwksUrl() {
    return jwksUrl;
  }

  /** The JWKS location; found by discovery when not set. */
  public McpAuthOptions setJwksUrl(String jwksUrl) {
    this.jwksUrl = jwksUrl;
    return this;
  }

  public String getIntrospectionUrl() {
    return introspectionUrl;
  }

  /** The RFC 7662 introspection endpoint; found by discovery when not set. */
  public McpAuthOptions setIntrospectionUrl(String introspectionUrl) {
    this.introspectionUrl = introspectionUrl;
    return this;
  }

  public String getClientId() {
    return clientId;
  }

  /** This resource server's own client id at the authorization server, used to call introspection. */
  public McpAuthOptions setClientId(String clientId) {
    this.clientId = clientId;
    return this;
  }

  public String getClientSecret() {
    return clientSecret;
  }

  public McpAuthOptions setClientSecret(String clientSecret) {
    this.clientSecret = clientSecret;
    return this;
  }

  public String getResource() {
    return resource;
  }

  /**
   * This server's canonical resource URI (RFC 8707), such as {@code https://mcp.example.com/mcp}: every token must
   * name it in its audience, and it is the {@code resource} of the protected resource metadata. Set it to the
   * URL clients use, not to what the server binds.
   */
  public McpAuthOptions setResource(String resource) {
    this.resource = resource;
    return this;
  }

  public String getResourceName() {
    return resourceName;
  }

  /** A human-readable name for the protected resource metadata ({@code resource_name}); optional. */
  public McpAuthOptions setResourceName(String resourceName) {
    this.resourceName = resourceName;
    return this;
  }

  public int getClockSkewSeconds() {
    return clockSkewSeconds;
  }

  /** Tolerance when checking {@code exp}, {@code nbf} and {@code iat}; 0 to 300 seconds. */
  public McpAuthOptions setClockSkewSeconds(int clockSkewSeconds) {
    if (clockSkewSeconds < 0 || clockSkewSeconds > MAX_CLOCK_SKEW_SECONDS) {
      throw new IllegalArgumentException("clockSkewSeconds must be between 0 and " + MAX_CLOCK_SKEW_SECONDS);
    }
    this.clockSkewSeconds = clockSkewSeconds;
    return this;
  }

  public List<String> getRequiredScopes() {
    return requiredScopes;
  }

  /**
   * Scopes every request needs (GET and DELETE included). They are the {@code scope} hint of a 401 challenge.
   */
  public McpAuthOptions setRequiredScopes(List<String> requiredScopes) {
    this.requiredScopes = new ArrayList<>(requiredScopes);
    return this;
  }

  public Map<String, List<String>> getMethodScopes() {
    return methodScopes;
  }

  /** Scopes needed, besides the required ones, by messages of a JSON-RPC method (such as {@code tools/call}). */
  public McpAuthOptions setMethodScopes(Map<String, List<String>> methodScopes) {
    this.methodScopes = new LinkedHashMap<>(methodScopes);
    return this;
  }

  /** Adds the scopes a JSON-RPC method needs. */
  public McpAuthOptions addMethodScopes(String method, List<String> scopes) {
    methodScopes.put(method, new ArrayList<>(scopes));
    return this;
  }

  public Map<String, List<String>> getToolScopes() {
    return toolScopes;
  }

  /** Scopes needed, besides the required and method ones, to call a tool ({@code tools/call} by name). */
  public McpAuthOptions setToolScopes(Map<String, List<String>> toolScopes) {
    this.toolScopes = new LinkedHashMap<>(toolScopes);
    return this;
  }

  /** Adds the scopes a tool needs. */
  public McpAuthOptions addToolScopes(String tool, List<String> scopes) {
    toolScopes.put(tool, new ArrayList<>(scopes));
    return this;
  }

  public List<String> getScopesSupported() {
    return scopesSupported;
  }

  /**
   * The {@code scopes_supported} of the protected resource metadata. When empty, the required scopes are
   * published (the minimal set for basic use; more are asked for by step-up).
   */
  public McpAuthOptions setScopesSupported(List<String> scopesSupported) {
    this.scopesSupported = new ArrayList<>(scopesSupported);
    return this;
  }

  public boolean isServeAuthorizationServerMetadata() {
    return serveAuthorizationServerMetadata;
  }

  /**
   * Back-compatibility with 2025-03-26 clients, which look for {@code /.well-known/oauth-authorization-server} on
   * the MCP server's own origin: serve there a mirror of the discovered authorization server's metadata.
   */
  public McpAuthOptions setServeAuthorizationServerMetadata(boolean serveAuthorizationServerMetadata) {
    this.serveAuthorizationServerMetadata = serveAuthorizationServerMetadata;
    return this;
  }

  public long getJwksRefreshMinIntervalMs() {
    return jwksRefreshMinIntervalMs;
  }

  /**
   * A token signed with an unknown key id makes the JWKS be fetched again (the authorization server may have
   * rotated its keys), at most once per this interval, so unknown key ids cannot be used to flood it.
   */
  public McpAuthOptions setJwksRefreshMinIntervalMs(long jwksRefreshMinIntervalMs) {
    if (jwksRefreshMinIntervalMs < 0) {
      throw new IllegalArgumentException("jwksRefreshMinIntervalMs must not be negative");
    }
    this.jwksRefreshMinIntervalMs = jwksRefreshMinIntervalMs;
    return this;
  }

  public long getJwksMaxAgeSeconds() {
    return jwksMaxAgeSeconds;
  }

  /**
   * How often the JWKS is fetched again when the authorization server sends no {@code Cache-Control: max-age}
   * (which wins when present), so removed keys stop being trusted; 0 or less: only on unknown key ids.
   */
  public McpAuthOptions setJwksMaxAgeSeconds(long jwksMaxAgeSeconds) {
    this.jwksMaxAgeSeconds = jwksMaxAgeSeconds;
    return this;
  }

  public long getHttpTimeoutMs() {
    return httpTimeoutMs;
  }

  /** Bound on each call to the authorization server (discovery, JWKS, introspection). */
  public McpAuthOptions setHttpTimeoutMs(long httpTimeoutMs) {
    if (httpTimeoutMs < 1) {
      throw new IllegalArgumentException("httpTimeoutMs must be positive");
    }
    this.httpTimeoutMs = httpTimeoutMs;
    return this;
  }

  public List<String> getAlgorithms() {
    return algorithms;
  }

  /** The JWS algorithms a JWT may be signed with; {@code none} and HMAC algorithms are refused whatever is set. */
  public McpAuthOptions setAlgorithms(List<String> algorithms) {
    for (String alg : algorithms) {
      if (alg.equalsIgnoreCase("none") || alg.toUpperCase(Locale.ROOT).startsWith("HS")) {
        throw new IllegalArgumentException("algorithm " + alg + " cannot verify a third party's token");
      }
    }
    this.algorithms = new ArrayList<>(algorithms);
    return this;
  }
}
