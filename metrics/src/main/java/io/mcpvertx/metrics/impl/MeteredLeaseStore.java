package io.mcpvertx.metrics.impl;

import io.mcpvertx.spi.leases.LeaseStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import java.util.List;

/** A {@link LeaseStore} whose operations are timed and counted by outcome (a failing renew is a lease at risk). */
final class MeteredLeaseStore implements LeaseStore {

  private final LeaseStore store;
  private final StoreMeter register;
  private final StoreMeter renew;
  private final StoreMeter release;
  private final StoreMeter isLive;
  private final StoreMeter claimSession;
  private final StoreMeter sessionOwner;
  private final StoreMeter releaseSession;
  private final StoreMeter executing;
  private final StoreMeter executed;
  private final StoreMeter takeOrphans;
  private final StoreMeter ping;

  MeteredLeaseStore(LeaseStore store, MeterRegistry registry) {
    this.store = store;
    String backend = StoreMeter.backend(store);
    this.register = new StoreMeter(registry, "leases", backend, "register");
    this.renew = new StoreMeter(registry, "leases", backend, "renew");
    this.release = new StoreMeter(registry, "leases", backend, "release");
    this.isLive = new StoreMeter(registry, "leases", backend, "is_live");
    this.claimSession = new StoreMeter(registry, "leases", backend, "claim_session");
    this.sessionOwner = new StoreMeter(registry, "leases", backend, "session_owner");
    this.releaseSession = new StoreMeter(registry, "leases", backend, "release_session");
    this.executing = new StoreMeter(registry, "leases", backend, "executing");
    this.executed = new StoreMeter(registry, "leases", backend, "executed");
    this.takeOrphans = new StoreMeter(registry, "leases", backend, "take_orphans");
    this.ping = new StoreMeter(registry, "leases", backend, "ping");
  }

  @Override
  public Future<Void> register(String instanceId, long ttlMs) {
    return register.time(() -> store.register(instanceId, ttlMs));
  }

  @Override
  public Future<Void> renew(String instanceId, long ttlMs) {
    return renew.time(() -> store.renew(instanceId, ttlMs));
  }

  @Override
  public Future<Void> release(String instanceId) {
    return release.time(() -> store.release(instanceId));
  }

  @Override
  public Future<Boolean> isLive(String instanceId) {
    return isLive.time(() -> store.isLive(instanceId));
  }

  @Override
  public Future<String> claimSession(String sessionId, String instanceId, long ttlMs) {
    return claimSession.time(() -> store.claimSession(sessionId, instanceId, ttlMs));
  }

  @Override
  public Future<String> sessionOwner(String sessionId) {
    return sessionOwner.time(() -> store.sessionOwner(sessionId));
  }

  @Override
  public Future<Void> releaseSession(String sessionId, String instanceId) {
    return releaseSession.time(() -> store.releaseSession(sessionId, instanceId));
  }

  @Override
  public Future<Void> executing(String instanceId, String taskId) {
    return executing.time(() -> store.executing(instanceId, taskId));
  }

  @Override
  public Future<Void> executed(String instanceId, String taskId) {
    return executed.time(() -> store.executed(instanceId, taskId));
  }

  @Override
  public Future<List<Orphan>> takeOrphans(int max) {
    return takeOrphans.time(() -> store.takeOrphans(max));
  }

  @Override
  public Future<Void> ping() {
    return ping.time(store::ping);
  }

  @Override
  public Future<Void> close() {
    return store.close();
  }
}
