package io.mcpvertx.benchmarks;

import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Redis client that counts the round trips made through it: each {@link #send} is one, by command; a
 * {@link #batch} is one too (its commands are pipelined). Connections taken with {@link #connect()} (the task
 * store's subscription) are not counted. Thread-safe.
 */
final class CountingRedis implements Redis {

  private final Redis redis;
  private final Map<String, LongAdder> sent = new ConcurrentHashMap<>();

  CountingRedis(Redis redis) {
    this.redis = redis;
  }

  @Override
  public Future<RedisConnection> connect() {
    return redis.connect();
  }

  @Override
  public Future<Void> close() {
    return redis.close();
  }

  @Override
  public Future<Response> send(Request request) {
    count(request.command().toString().toLowerCase(Locale.ROOT));
    return redis.send(request);
  }

  @Override
  public Future<List<Response>> batch(List<Request> requests) {
    count("batch");
    return redis.batch(requests);
  }

  private void count(String name) {
    sent.computeIfAbsent(name, k -> new LongAdder()).increment();
  }

  /** Round trips by command since the last reset. */
  Map<String, Long> counts() {
    Map<String, Long> counts = new TreeMap<>();
    sent.forEach((name, adder) -> counts.put(name, adder.sum()));
    return counts;
  }

  void reset() {
    sent.clear();
  }
}
