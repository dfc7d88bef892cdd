package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.tasks.TaskIds;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The key layout of the Redis stores, in one place. Every key and channel starts with the configured prefix
 * {@code P}; ids inside key names are {@linkplain #segment encoded} so no id can forge another key's name.
 *
 * <p>Task store. The keys of an owner's tasks carry the owner's tag {@code {<tag>}} (four hex digits of a
 * digest of the owner) as hash tag, and so does every id {@link #newTaskId} makes for that owner: creating a task
 * checks its owner's limit, adds it to the owner's index and stores it in one atomic script, which Redis Cluster
 * allows only within a slot, while different owners' tasks spread over the cluster's masters.
 * <ul>
 *   <li>{@code Ptask:{<tag>}:t:<task>}: string, the task as JSON (fields in {@code task-common.lua}); expires
 *       with the task.
 *   <li>{@code Ptask:{<tag>}:n:<task>}: string, set when a create whose answer was lost was abandoned before it
 *       ran: the create refuses when it arrives. Expires after the task's TTL (at most a day).
 *   <li>{@code Ptask:{<tag>}:o:<owner>}: sorted set, every score 0, members {@code <order>:<task>} with
 *       {@code order} zero-padded: the owner's tasks in creation order, paged by lexicographic range.
 *   <li>{@code Ptask:{<tag>}:x:<owner>}: sorted set, the same members scored by expiry time: finds the entries
 *       of {@code o} whose tasks expired.
 *   <li>{@code Ptask:{<tag>}:a:<owner>}: sorted set, task scored by expiry time ({@code +inf} for none): the
 *       owner's non-terminal tasks, for the limit.
 *   <li>{@code Ptasks:changes}: the channel task changes are published on.
 * </ul>
 * {@code <owner>} is a digest of the owner, so owners of any shape make well-formed, fixed-length keys. A task
 * id's tag is what follows its last {@code .} when that is four hex digits; any other id gets the tag of its own
 * digest, which matches an owner's only by chance, so the store refuses to create it.
 *
 * <p>Event store. The keys of a session carry its id as hash tag: a session's keys share a slot, while sessions
 * spread over the cluster.
 * <ul>
 *   <li>{@code Pev:{<session>}:s:<stream>}: stream, the SSE events (field {@code d}); an entry with field
 *       {@code c} marks the stream complete. Every entry records its predecessor's id (field {@code p}).
 *   <li>{@code Pev:{<session>}:streams}: sorted set, the session's stream segments in order of creation, to
 *       bound and remove them.
 *   <li>{@code Pev:{<session>}:last}: hash, the last entry id of each stream segment: the next entry's
 *       predecessor.
 * </ul>
 *
 * <p>Session store. One key per session, with the same hash tag as the session's events.
 * <ul>
 *   <li>{@code Psession:{<session>}}: string, the session's record as JSON; its expiry is the session's.
 * </ul>
 *
 * <p>Lease store. Every key carries the hash tag {@code {leases}}: a claim checks its owner's lease in the same
 * script, and a sweep walks instances and their executions, which Redis allows only within a slot. The slot carries
 * little: one renewal per instance per interval, one claim per session restore and per quarter idle timeout.
 * <ul>
 *   <li>{@code P{leases}:l:<instance>}: string, the instance's lease; its expiry is the lease's.
 *   <li>{@code P{leases}:s:<session>}: string, the instance (segment) that owns the session; expires with the
 *       claim.
 *   <li>{@code P{leases}:e:<instance>}: set, the tasks the instance's handlers are running.
 *   <li>{@code P{leases}:instances}: set, the instances (segments) with an {@code e} set, for the sweepers.
 * </ul>
 */
public final class RedisKeys {

  private static final HexFormat HEX = HexFormat.of();
  /** Hex digits of an owner's digest in its tag: 65,536 tags, spread over Redis Cluster's 16,384 slots. */
  private static final int TAG_LENGTH = 4;
  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  private final String prefix;

  private final String leases;

  public RedisKeys(String prefix) {
    this.prefix = prefix;
    this.leases = prefix + "{leases}:";
  }

  /** The lease of an instance. */
  public String lease(String instanceId) {
    return leasePrefix() + segment(instanceId);
  }

  /** What {@link #lease} puts before the instance's segment. */
  public String leasePrefix() {
    return leases + "l:";
  }

  /** The claim on a session. */
  public String sessionClaim(String sessionId) {
    return leases + "s:" + segment(sessionId);
  }

  /** The tasks an instance is running. */
  public String executions(String instanceId) {
    return executionsPrefix() + segment(instanceId);
  }

  /** What {@link #executions} puts before the instance's segment. */
  public String executionsPrefix() {
    return leases + "e:";
  }

  /** The instances with executions. */
  public String leaseInstances() {
    return leases + "instances";
  }

  public String prefix() {
    return prefix;
  }

  /** A task id for {@code owner}: a {@link TaskIds#generate() random id} and the owner's tag after a dot. */
  public static String newTaskId(String owner) {
    return TaskIds.generate() + "." + ownerSlotTag(owner);
  }

  /** The tag whose slot holds the keys of an owner's tasks. */
  public static String ownerSlotTag(String owner) {
    return ownerTag(owner).substring(0, TAG_LENGTH);
  }

  /** The tag whose slot holds a task: the one in its id, or one of its own for an id without. */
  public static String taskSlotTag(String taskId) {
    int dot = taskId.lastIndexOf('.');
    if (dot >= 0 && taskId.length() - dot - 1 == TAG_LENGTH) {
      String tag = taskId.substring(dot + 1);
      if (tag.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return tag;
      }
    }
    return ownerSlotTag(taskId);
  }

  /** The record of a task. */
  public String task(String taskId) {
    return taskKeyPrefix(taskSlotTag(taskId)) + segment(taskId);
  }

  /** The marker of an abandoned create. */
  public String abandonedTask(String taskId) {
    return tasks(taskSlotTag(taskId)) + "n:" + segment(taskId);
  }

  /** What {@link #task} puts before the segment of a task with tag {@code tag}; scripts that walk an index use it. */
  public String taskKeyPrefix(String tag) {
    return tasks(tag) + "t:";
  }

  /** The owner's tasks in creation order. */
  public String ownerTasks(String owner) {
    return tasks(ownerSlotTag(owner)) + "o:" + ownerTag(owner);
  }

  /** The owner's task entries by expiry time. */
  public String ownerExpiries(String owner) {
    return tasks(ownerSlotTag(owner)) + "x:" + ownerTag(owner);
  }

  /** The owner's non-terminal tasks. */
  public String ownerActive(String owner) {
    return tasks(ownerSlotTag(owner)) + "a:" + ownerTag(owner);
  }

  private String tasks(String tag) {
    return prefix + "task:{" + tag + "}:";
  }

  /** The channel every task change is published on. */
  public String taskChanges() {
    return prefix + "tasks:changes";
  }

  /** The stream of one SSE stream of a session. */
  public String eventStream(String sessionId, String streamId) {
    return eventStreamPrefix(sessionId) + segment(streamId);
  }

  /** What {@link #eventStream} puts before the stream's segment. */
  public String eventStreamPrefix(String sessionId) {
    return prefix + "ev:{" + segment(sessionId) + "}:s:";
  }

  /** The index of a session's streams. */
  public String eventStreams(String sessionId) {
    return prefix + "ev:{" + segment(sessionId) + "}:streams";
  }

  /** The last entry id of each of a session's streams. */
  public String eventLastIds(String sessionId) {
    return prefix + "ev:{" + segment(sessionId) + "}:last";
  }

  /** The record of a session. */
  public String session(String sessionId) {
    return prefix + "session:{" + segment(sessionId) + "}";
  }

  /**
   * An id as it appears inside key names: as it is when it consists of letters, digits, {@code .}, {@code _} and
   * {@code -} only (the ids this runtime generates), otherwise {@code ~} and its UTF-8 in URL-safe base64. Either
   * way it contains no {@code :} or braces, so it cannot end a key component or a hash tag early.
   */
  public static String segment(String id) {
    if (!id.isEmpty() && plain(id)) {
      return id;
    }
    return "~" + BASE64.encodeToString(id.getBytes(StandardCharsets.UTF_8));
  }

  /** The id a {@link #segment} was made of. */
  public static String unsegment(String segment) {
    return segment.startsWith("~")
        ? new String(Base64.getUrlDecoder().decode(segment.substring(1)), StandardCharsets.UTF_8)
        : segment;
  }

  /** A fixed-length digest of an owner: 128 bits of its SHA-256, in hex. */
  public static String ownerTag(String owner) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(owner.getBytes(StandardCharsets.UTF_8));
      return HEX.formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  private static boolean plain(String id) {
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
