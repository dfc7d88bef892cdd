package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.leases.LeaseLostException;
import io.mcpvertx.storage.redis.RedisLeaseStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.StoreUnavailableException;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link RedisLeaseStore}: plain commands where one key is involved, a script where a decision reads more than one.
 * Each call is one round trip, bounded by the command timeout. Stateless apart from the client.
 */
public final class RedisLeaseStoreImpl implements RedisLeaseStore {

  private static final LuaScript REGISTER = LuaScript.load("lease-register");
  private static final LuaScript CLAIM = LuaScript.load("lease-claim");
  private static final LuaScript OWNER = LuaScript.load("lease-owner");
  private static final LuaScript RELEASE_SESSION = LuaScript.load("lease-release-session");
  private static final LuaScript EXECUTING = LuaScript.load("lease-executing");
  private static final LuaScript ORPHANS = LuaScript.load("lease-orphans");

  private final Redis redis;
  private final boolean ownsClient;
  private final RedisKeys keys;
  private final Bounded bounded;

  public RedisLeaseStoreImpl(Redis redis, RedisStoreOptions options, boolean ownsClient) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.ownsClient = ownsClient;
    this.keys = new RedisKeys(options.getKeyPrefix());
    this.bounded = new Bounded(options.getCommandTimeoutMs(),
        cause -> new StoreUnavailableException("lease store unavailable: " + cause),
        StoreUnavailableException.class::isInstance);
  }

  @Override
  public Future<Void> register(String instanceId, long ttlMs) {
    requirePositive(ttlMs);
    return bounded.call(REGISTER.run(redis, List.of(keys.lease(instanceId), keys.executions(instanceId)), ttlMs))
        .compose(reply -> reply == null
        ? Future.failedFuture(new IllegalStateException("instance id already registered: " + instanceId))
        : Future.succeededFuture());
  }

  @Override
  public Future<Void> renew(String instanceId, long ttlMs) {
    requirePositive(ttlMs);
    Request expire = Request.cmd(Command.PEXPIRE).arg(keys.lease(instanceId)).arg(ttlMs);
    return bounded.call(redis.send(expire)).compose(reply -> reply.toLong() == 1 ? Future.succeededFuture()
        : Future.failedFuture(new LeaseLostException(instanceId)));
  }

  @Override
  public Future<Void> release(String instanceId) {
    return bounded.call(redis.send(Request.cmd(Command.DEL).arg(keys.lease(instanceId)))).mapEmpty();
  }

  @Override
  public Future<Boolean> isLive(String instanceId) {
    return bounded.call(redis.send(Request.cmd(Command.EXISTS).arg(keys.lease(instanceId))))
        .map(reply -> reply.toLong() == 1);
  }

  @Override
  public Future<String> claimSession(String sessionId, String instanceId, long ttlMs) {
    requirePositive(ttlMs);
    return bounded.call(CLAIM.run(redis, List.of(keys.sessionClaim(sessionId), keys.lease(instanceId)),
            RedisKeys.segment(instanceId), ttlMs, keys.leasePrefix()))
        .compose(reply -> reply == null ? Future.failedFuture(new LeaseLostException(instanceId))
            : Future.succeededFuture(RedisKeys.unsegment(reply.toString())));
  }

  @Override
  public Future<String> sessionOwner(String sessionId) {
    return bounded.call(OWNER.run(redis, List.of(keys.sessionClaim(sessionId)), keys.leasePrefix()))
        .map(reply -> reply == null ? null : RedisKeys.unsegment(reply.toString()));
  }

  @Override
  public Future<Void> releaseSession(String sessionId, String instanceId) {
    return bounded.call(RELEASE_SESSION.run(redis, List.of(keys.sessionClaim(sessionId)),
        RedisKeys.segment(instanceId))).mapEmpty();
  }

  @Override
  public Future<Void> executing(String instanceId, String taskId) {
    return bounded.call(EXECUTING.run(redis, List.of(keys.executions(instanceId), keys.leaseInstances()),
        RedisKeys.segment(instanceId), taskId)).mapEmpty();
  }

  @Override
  public Future<Void> executed(String instanceId, String taskId) {
    return bounded.call(redis.send(Request.cmd(Command.SREM).arg(keys.executions(instanceId)).arg(taskId)))
        .mapEmpty();
  }

  @Override
  public Future<List<Orphan>> takeOrphans(int max) {
    if (max < 1) {
      return Future.succeededFuture(List.of());
    }
    return bounded.call(ORPHANS.run(redis, List.of(keys.leaseInstances()), max, SWEEP_SAMPLE, keys.leasePrefix(),
        keys.executionsPrefix())).map(RedisLeaseStoreImpl::orphans);
  }

  private static List<Orphan> orphans(Response reply) {
    List<Orphan> orphans = new ArrayList<>();
    if (reply == null) {
      return orphans;
    }
    for (int i = 0; i + 1 < reply.size(); i += 2) {
      orphans.add(new Orphan(reply.get(i + 1).toString(), RedisKeys.unsegment(reply.get(i).toString())));
    }
    return orphans;
  }

  @Override
  public Future<Void> ping() {
    return bounded.call(redis.send(Request.cmd(Command.PING))).mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return ownsClient ? redis.close() : Future.succeededFuture();
  }

  private static void requirePositive(long ttlMs) {
    if (ttlMs < 1) {
      throw new IllegalArgumentException("ttlMs must be positive");
    }
  }
}
