package io.mcpvertx.storage.redis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TestRedisTest {

  @RegisterExtension
  static final RedisServerExtension REDIS = new RedisServerExtension();

  @Test
  void answersOnAPortOfItsOwnNeverTheDefaultOne() {
    TestRedis redis = REDIS.redis();
    assertEquals("PONG", redis.call("PING"));
    if (redis.isPrivate()) {
      assertNotEquals(6379, redis.port());
    }
  }

  @Test
  void eachStartHasItsOwnKeyPrefix() {
    TestRedis other = TestRedis.external(REDIS.redis().url(), TestRedisTest.class);
    assertNotEquals(REDIS.redis().keyPrefix(), other.keyPrefix());
    assertTrue(other.keyPrefix().startsWith("mcptest:TestRedisTest:"));
  }

  @Test
  void keepsItsDataAcrossAStopAndARestartOnTheSamePort() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    int port = redis.port();
    String key = redis.keyPrefix() + "survivor";
    redis.call("SET", key, "still here");
    redis.stop();
    assertThrows(IOException.class, () -> RespConnection.open(redis.url(), 1000).close());
    redis.restart();
    assertEquals(port, redis.port());
    assertEquals("still here", redis.call("GET", key));
  }

  @Test
  void comesBackAfterAKill() {
    TestRedis redis = REDIS.redis();
    redis.assumePrivate();
    redis.kill();
    redis.restart();
    assertEquals("PONG", redis.call("PING"));
  }

  @Test
  void closingAnExternalRedisDeletesOnlyItsOwnKeys() {
    TestRedis owner = REDIS.redis();
    TestRedis external = TestRedis.external(owner.url(), TestRedisTest.class);
    String foreign = owner.keyPrefix() + "not-theirs";
    owner.call("SET", foreign, "keep");
    for (int i = 0; i < 2500; i++) {
      external.call("SET", external.keyPrefix() + "k" + i, "x");
    }
    external.call("SET", external.keyPrefix() + "{tag}:k", "x");
    assertEquals(2501, external.keys().size());
    external.close();
    assertTrue(external.keys().isEmpty());
    assertEquals("keep", owner.call("GET", foreign));
    assertTrue(owner.keys().contains(foreign));
    owner.call("DEL", foreign);
  }
}
