package io.mcpvertx.storage.redis.impl;

import io.mcpvertx.spi.UnknownEventException;
import io.mcpvertx.storage.redis.RedisEventStore;
import io.mcpvertx.storage.redis.RedisStoreOptions;
import io.mcpvertx.storage.redis.StoreUnavailableException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link RedisEventStore} with one Lua script per step (append or complete, removal): each is one round trip and
 * atomic. A replay reads the entries after the client's with plain range reads, and asks a script only when the
 * client's entry is gone. Stateless apart from the client: safe from any thread.
 */
public final class RedisEventStoreImpl implements RedisEventStore {

  private static final LuaScript APPEND = LuaScript.load("event-append");
  private static final LuaScript REPLAY = LuaScript.load("event-replay");
  private static final LuaScript REMOVE_SESSION = LuaScript.load("event-remove-session");
  private static final String DATA = "d";
  private static final String COMPLETE = "c";

  private final Redis redis;
  private final boolean ownsClient;
  private final RedisKeys keys;
  private final Bounded bounded;
  private final int maxEvents;
  private final int maxStreams;
  private final long ttlMs;
  /** Approximate trimming keeps up to a radix-tree node more than asked; a replay reads at most this many. */
  private final int replayLimit;

  public RedisEventStoreImpl(Redis redis, RedisStoreOptions options, boolean ownsClient) {
    this.redis = redis;
    this.ownsClient = ownsClient;
    this.keys = new RedisKeys(options.getKeyPrefix());
    this.bounded = new Bounded(options.getCommandTimeoutMs(),
        cause -> new StoreUnavailableException("event store unavailable: " + cause),
        StoreUnavailableException.class::isInstance);
    this.maxEvents = options.getMaxEventsPerStream();
    this.maxStreams = options.getMaxStreamsPerSession();
    this.ttlMs = options.getEventTtlMs();
    this.replayLimit = (int) Math.min(Integer.MAX_VALUE, 2L * maxEvents + 256);
  }

  @Override
  public Future<String> append(String sessionId, String streamId, Buffer data) {
    return bounded.call(appendEntry(sessionId, streamId, DATA, data, false))
        .map(entryId -> streamId + "_" + entryId.toString());
  }

  @Override
  public Future<Void> complete(String sessionId, String streamId) {
    // Only into a stream that exists: completing one without events (or expired) stores nothing.
    return bounded.call(appendEntry(sessionId, streamId, COMPLETE, Buffer.buffer("1"), true)).mapEmpty();
  }

  private Future<Response> appendEntry(String sessionId, String streamId, String field, Buffer value,
      boolean existingOnly) {
    List<String> k = List.of(keys.eventStream(sessionId, streamId), keys.eventStreams(sessionId),
        keys.eventLastIds(sessionId));
    return APPEND.run(redis, k, field, value, maxEvents, ttlMs, maxStreams, RedisKeys.segment(streamId),
        keys.eventStreamPrefix(sessionId), existingOnly ? 1 : 0);
  }

  @Override
  public Future<Replay> replayAfter(String sessionId, String lastEventId) {
    int sep = lastEventId == null ? -1 : lastEventId.lastIndexOf('_');
    String entryId = sep <= 0 ? null : lastEventId.substring(sep + 1);
    if (entryId == null || !isEntryId(entryId)) {
      return Future.failedFuture(new UnknownEventException("Malformed event id"));
    }
    String streamId = lastEventId.substring(0, sep);
    String key = keys.eventStream(sessionId, streamId);
    // The usual case, the client's entry still there, is two range reads in one round trip and no script, whose
    // copying of every entry into Lua and back would cost Redis more than the reads. The script settles the rest.
    List<Request> reads = List.of(Request.cmd(Command.XRANGE).arg(key).arg(entryId).arg(entryId),
        Request.cmd(Command.XRANGE).arg(key).arg("(" + entryId).arg("+").arg("COUNT").arg(replayLimit));
    return bounded.call(redis.batch(reads)).compose(replies -> replies.get(0).size() == 1
        ? Future.succeededFuture(replay(streamId, replies.get(1)))
        : bounded.call(REPLAY.run(redis, List.of(key), entryId, replayLimit))
            .compose(entries -> entries == null
                ? Future.failedFuture(new UnknownEventException("Unknown or expired event id"))
                : Future.succeededFuture(replay(streamId, entries))));
  }

  @Override
  public Future<Void> removeSession(String sessionId) {
    return bounded.call(REMOVE_SESSION.run(redis, List.of(keys.eventStreams(sessionId),
        keys.eventLastIds(sessionId)), keys.eventStreamPrefix(sessionId))).mapEmpty();
  }

  @Override
  public String streamOf(String eventId) {
    int sep = eventId == null ? -1 : eventId.lastIndexOf('_');
    return sep <= 0 || !isEntryId(eventId.substring(sep + 1)) ? null : eventId.substring(0, sep);
  }

  @Override
  public Future<Void> ping() {
    return bounded.call(redis.send(Request.cmd(Command.PING))).mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return ownsClient ? redis.close() : Future.succeededFuture();
  }

  private static Replay replay(String streamId, Response entries) {
    List<StoredEvent> events = new ArrayList<>(entries.size());
    boolean complete = false;
    for (Response entry : entries) {
      Response fields = entry.get(1);
      String field = fields.get(0).toString();
      if (DATA.equals(field)) {
        events.add(new StoredEvent(streamId + "_" + entry.get(0).toString(), fields.get(1).toBuffer()));
      } else if (COMPLETE.equals(field)) {
        complete = true;
      }
    }
    return new Replay(streamId, events, complete);
  }

  /**
   * Whether {@code id} is a stream entry id in Redis's canonical form ({@code <ms>-<seq>}, unsigned 64-bit
   * decimals without leading zeros): the replay script compares ids as strings.
   */
  static boolean isEntryId(String id) {
    int dash = id.indexOf('-');
    return dash > 0 && canonical(id.substring(0, dash)) && canonical(id.substring(dash + 1));
  }

  private static boolean canonical(String digits) {
    if (digits.isEmpty() || digits.length() > 20) {
      return false;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return false;
      }
    }
    try {
      return Long.toUnsignedString(Long.parseUnsignedLong(digits)).equals(digits);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
