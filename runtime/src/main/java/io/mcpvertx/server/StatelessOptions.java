package io.mcpvertx.server;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Options of the stateless (2026-07-28) generation: the keys that protect {@code requestState}, and the caching
 * hints put on list and read results.
 */
public class StatelessOptions {

  public static final long DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60 * 1000;
  public static final long DEFAULT_LIST_TTL_MS = 0;
  public static final long DEFAULT_READ_TTL_MS = 0;
  public static final String DEFAULT_CACHE_SCOPE = "private";

  private List<String> requestStateKeys;
  private long requestStateTtlMs;
  private long listTtlMs;
  private String listCacheScope;
  private long readTtlMs;
  private String readCacheScope;

  public StatelessOptions() {
    requestStateKeys = new ArrayList<>();
    requestStateTtlMs = DEFAULT_REQUEST_STATE_TTL_MS;
    listTtlMs = DEFAULT_LIST_TTL_MS;
    listCacheScope = DEFAULT_CACHE_SCOPE;
    readTtlMs = DEFAULT_READ_TTL_MS;
    readCacheScope = DEFAULT_CACHE_SCOPE;
  }

  public StatelessOptions(StatelessOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public StatelessOptions(JsonObject json) {
    this();
    setRequestStateKeys(strings(json.getJsonArray("requestStateKeys"), requestStateKeys));
    setRequestStateTtlMs(json.getLong("requestStateTtlMs", requestStateTtlMs));
    setListTtlMs(json.getLong("listTtlMs", listTtlMs));
    setListCacheScope(json.getString("listCacheScope", listCacheScope));
    setReadTtlMs(json.getLong("readTtlMs", readTtlMs));
    setReadCacheScope(json.getString("readCacheScope", readCacheScope));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("requestStateKeys", new JsonArray(new ArrayList<>(requestStateKeys)))
        .put("requestStateTtlMs", requestStateTtlMs)
        .put("listTtlMs", listTtlMs).put("listCacheScope", listCacheScope)
        .put("readTtlMs", readTtlMs).put("readCacheScope", readCacheScope);
  }

  public List<String> getRequestStateKeys() {
    return requestStateKeys;
  }

  /**
   * HMAC keys (any string of at least 32 characters) that sign and verify {@code requestState}. The first signs;
   * all verify, so a key is rotated by putting the new one first and dropping the old one once every state it
   * signed has expired. Every instance behind a load balancer needs the same keys. When empty, a random key is
   * made at start-up, which suits a single instance only.
   */
  public StatelessOptions setRequestStateKeys(List<String> requestStateKeys) {
    Objects.requireNonNull(requestStateKeys, "requestStateKeys");
    for (String key : requestStateKeys) {
      if (key == null || key.length() < 32) {
        throw new IllegalArgumentException("requestState keys must have at least 32 characters");
      }
    }
    this.requestStateKeys = new ArrayList<>(requestStateKeys);
    return this;
  }

  public long getRequestStateTtlMs() {
    return requestStateTtlMs;
  }

  /** How long a {@code requestState} stays valid; older ones are rejected. */
  public StatelessOptions setRequestStateTtlMs(long requestStateTtlMs) {
    if (requestStateTtlMs < 1) {
      throw new IllegalArgumentException("requestStateTtlMs must be positive");
    }
    this.requestStateTtlMs = requestStateTtlMs;
    return this;
  }

  public long getListTtlMs() {
    return listTtlMs;
  }

  /** {@code ttlMs} on list results and {@code server/discover}. */
  public StatelessOptions setListTtlMs(long listTtlMs) {
    this.listTtlMs = nonNegative(listTtlMs, "listTtlMs");
    return this;
  }

  public String getListCacheScope() {
    return listCacheScope;
  }

  /** {@code cacheScope} on list results and {@code server/discover}: {@code public} or {@code private}. */
  public StatelessOptions setListCacheScope(String listCacheScope) {
    this.listCacheScope = scope(listCacheScope);
    return this;
  }

  public long getReadTtlMs() {
    return readTtlMs;
  }

  /** {@code ttlMs} on {@code resources/read} results. */
  public StatelessOptions setReadTtlMs(long readTtlMs) {
    this.readTtlMs = nonNegative(readTtlMs, "readTtlMs");
    return this;
  }

  public String getReadCacheScope() {
    return readCacheScope;
  }

  /** {@code cacheScope} on {@code resources/read} results. */
  public StatelessOptions setReadCacheScope(String readCacheScope) {
    this.readCacheScope = scope(readCacheScope);
    return this;
  }

  private static List<String> strings(JsonArray array, List<String> absent) {
    if (array == null) {
      return absent;
    }
    List<String> list = new ArrayList<>();
    array.forEach(value -> list.add(String.valueOf(value)));
    return list;
  }

  private static long nonNegative(long value, String name) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must not be negative");
    }
    return value;
  }

  private static String scope(String scope) {
    if (!"public".equals(scope) && !"private".equals(scope)) {
      throw new IllegalArgumentException("cacheScope must be public or private: " + scope);
    }
    return scope;
  }
}
