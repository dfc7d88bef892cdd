package io.mcpvertx.spi.leases;

import io.vertx.core.Future;
import java.util.List;

/**
 * Decides which instance of a deployment owns what, so that a session is served by exactly one instance and a
 * task whose executor died does not stay {@code working} forever.
 *
 * <p>Everything hangs on an <em>instance lease</em>: an instance {@link #register registers} under an id that is
 * new for every start, {@link #renew renews} its lease well before it lapses, and {@link #release releases} it when
 * it leaves. A lease that lapsed is never renewed again: the instance learns it lost it ({@link LeaseLostException})
 * and must stop serving what it owned, because others may have taken it over meanwhile. That is the fencing that
 * keeps two instances from serving one session (no split brain): a claim is only granted over an owner whose lease
 * is gone, and only the store decides whether it is gone.
 *
 * <ul>
 *   <li><b>Sessions.</b> {@link #claimSession} makes the caller a session's owner unless another live instance
 *   owns it, and says who owns it afterwards; a claim lives while its owner's lease does, and at most its own
 *   lifetime (the session's idle timeout, extended by claiming again).</li>
 *   <li><b>Task executions.</b> {@link #executing} and {@link #executed} bracket a task handler's run on an
 *   instance. When that instance's lease is gone, its unfinished executions are {@link #takeOrphans orphans}: each
 *   is handed to exactly one surviving instance, which fails the task (or runs it again when the tool is
 *   idempotent).</li>
 * </ul>
 *
 * <p>Implementations are thread-safe, never block the caller, and keep time themselves (a remote store by its own
 * clock, so instances' clocks do not have to agree).
 */
public interface LeaseStore {

  /**
   * Starts the lease of a new instance, for {@code ttlMs}. Fails with an {@link IllegalStateException} when the id
   * is already known (ids are never reused: a restarted instance registers a new one).
   */
  Future<Void> register(String instanceId, long ttlMs);

  /**
   * Extends the instance's lease to {@code ttlMs} from now. Fails with {@link LeaseLostException} when the lease
   * lapsed or was released: the instance must then give up what it owns.
   */
  Future<Void> renew(String instanceId, long ttlMs);

  /**
   * Ends the instance's lease now (a graceful leave): its sessions can be claimed at once, and its unfinished
   * executions become orphans. Releasing an unknown or lapsed lease does nothing.
   */
  Future<Void> release(String instanceId);

  /** Whether the instance's lease is live now. */
  Future<Boolean> isLive(String instanceId);

  /**
   * Claims a session for {@code instanceId} unless another instance with a live lease owns it, and yields the owner
   * after the call: {@code instanceId} when the claim was granted (or already held, in which case its lifetime is
   * extended to {@code ttlMs}), the other instance's id otherwise. Fails with {@link LeaseLostException} when the
   * caller's own lease is not live.
   */
  Future<String> claimSession(String sessionId, String instanceId, long ttlMs);

  /** The instance owning the session now, or null: no claim, or its owner's lease is gone. */
  Future<String> sessionOwner(String sessionId);

  /** Gives up the claim when {@code instanceId} holds it; otherwise does nothing. */
  Future<Void> releaseSession(String sessionId, String instanceId);

  /** Records that {@code instanceId} is running the handler of {@code taskId}. */
  Future<Void> executing(String instanceId, String taskId);

  /** The handler of {@code taskId} is no longer running on {@code instanceId} (it finished, or was cancelled). */
  Future<Void> executed(String instanceId, String taskId);

  /**
   * Takes up to {@code max} executions of instances whose lease is gone. Each is handed out once, to one caller,
   * which must settle the task: it is not handed out again. An instance with nothing left to hand out is forgotten.
   */
  Future<List<Orphan>> takeOrphans(int max);

  /**
   * Succeeds when the store can serve requests now; a readiness check. Stores in this JVM's memory succeed at once
   * (the default); a remote store asks its server and fails fast when it cannot be reached.
   */
  default Future<Void> ping() {
    return Future.succeededFuture();
  }

  /** Releases connections and timers (not leases: {@link #release} does that). */
  default Future<Void> close() {
    return Future.succeededFuture();
  }

  /** A task whose executor's lease is gone while its handler was running. */
  record Orphan(String taskId, String instanceId) {
  }
}
