package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.storage.redis.RedisSessionStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.StoreUnavailableException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import java.util.Objects;

/**
 * {@link RedisSessionStore}: {@code SET PX} to put, {@code GET} to read, {@code PEXPIRE} to touch, {@code UNLINK} to
 * remove, each bounded by the command timeout. Stateless apart from the client: safe from any thread.
 */
public final class RedisSessionStoreImpl implements RedisSessionStore {

  /** Lifetimes beyond this (about a thousand years) are cut to it, so Redis accepts the expiry. */
  static final long MAX_TTL_MS = 1000L * 365 * 24 * 60 * 60 * 1000;

  private final Redis redis;
  private final boolean ownsClient;
  private final RedisKeys keys;
  private final Bounded bounded;

  public RedisSessionStoreImpl(Redis redis, RedisStoreOptions options, boolean ownsClient) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.ownsClient = ownsClient;
    this.keys = new RedisKeys(options.getKeyPrefix());
    this.bounded = new Bounded(options.getCommandTimeoutMs(),
        cause -> new StoreUnavailableException("session store unavailable: " + cause),
        StoreUnavailableException.class::isInstance);
  }

  @Override
  public Future<Void> put(SessionRecord record, long ttlMs) {
    Objects.requireNonNull(record, "record");
    if (ttlMs < 1) {
      return Future.failedFuture(new IllegalArgumentException("ttlMs must be positive"));
    }
    Request set = Request.cmd(Command.SET).arg(keys.session(record.sessionId())).arg(record.toJson().encode())
        .arg("PX").arg(Math.min(ttlMs, MAX_TTL_MS));
    return bounded.call(redis.send(set)).mapEmpty();
  }

  @Override
  public Future<SessionRecord> get(String sessionId) {
    if (sessionId == null) {
      return Future.succeededFuture();
    }
    return bounded.call(redis.send(Request.cmd(Command.GET).arg(keys.session(sessionId))))
        .map(reply -> reply == null ? null : SessionRecord.fromJson(new JsonObject(reply.toBuffer())));
  }

  @Override
  public Future<Boolean> touch(String sessionId, long ttlMs) {
    if (ttlMs < 1) {
      return Future.failedFuture(new IllegalArgumentException("ttlMs must be positive"));
    }
    if (sessionId == null) {
      return Future.succeededFuture(false);
    }
    Request expire = Request.cmd(Command.PEXPIRE).arg(keys.session(sessionId)).arg(Math.min(ttlMs, MAX_TTL_MS));
    return bounded.call(redis.send(expire)).map(reply -> reply.toLong() == 1);
  }

  @Override
  public Future<Boolean> remove(String sessionId) {
    if (sessionId == null) {
      return Future.succeededFuture(false);
    }
    return bounded.call(redis.send(Request.cmd(Command.UNLINK).arg(keys.session(sessionId))))
        .map(reply -> reply.toLong() > 0);
  }

  @Override
  public Future<Void> ping() {
    return bounded.call(redis.send(Request.cmd(Command.PING))).mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return ownsClient ? redis.close() : Future.succeededFuture();
  }
}
