package io.mcpvertx.verticles.http.impl.session;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live addresses of streams that a GET in this JVM follows, over every endpoint of one Vert.x instance (two
 * endpoints sharing stores may serve one session, each with its own view of it). Without a cluster, an event
 * nobody here follows has no reader on the event bus, so its publication can be skipped. Thread-safe.
 */
final class FollowedStreams implements Shareable {

  private final ConcurrentHashMap<String, Integer> followers = new ConcurrentHashMap<>();

  /** The one instance of {@code vertx}, kept in its local shared data so that it goes when Vert.x closes. */
  static FollowedStreams of(Vertx vertx) {
    LocalMap<String, FollowedStreams> shared = vertx.sharedData().getLocalMap(FollowedStreams.class.getName());
    FollowedStreams fresh = new FollowedStreams();
    FollowedStreams existing = shared.putIfAbsent("streams", fresh);
    return existing != null ? existing : fresh;
  }

  void follow(String address) {
    followers.merge(address, 1, Integer::sum);
  }

  void unfollow(String address) {
    followers.computeIfPresent(address, (a, count) -> count == 1 ? null : count - 1);
  }

  boolean isEmpty() {
    return followers.isEmpty();
  }

  boolean isFollowed(String address) {
    return followers.containsKey(address);
  }
}
