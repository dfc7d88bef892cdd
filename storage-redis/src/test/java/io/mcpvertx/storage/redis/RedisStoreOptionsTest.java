package io.mcpvertx.storage.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisReplicas;
import io.vertx.redis.client.RedisRole;
import io.vertx.redis.client.RedisTopology;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RedisStoreOptionsTest {

  @Test
  void defaultsRaiseThePoolAboveTheClientsAndFailFast() {
    RedisStoreOptions options = new RedisStoreOptions();
    assertEquals(RedisClientType.STANDALONE, options.getType());
    assertEquals(List.of("redis://localhost:6379"), options.getConnectionStrings());
    assertEquals("mymaster", options.getMasterName());
    assertEquals(RedisTopology.DISCOVER, options.getTopology());
    assertEquals(32, options.getMaxPoolSize());
    assertEquals(1024, options.getMaxPoolWaiting());
    assertEquals(2048, options.getMaxWaitingHandlers());
    assertEquals("mcp:", options.getKeyPrefix());
    assertEquals(2_000, options.getCommandTimeoutMs());
    assertEquals(500, options.getReconnectDelayMs());
    assertEquals(5_000, options.getPingIntervalMs());
    assertEquals(600_000, options.getEventTtlMs());
    assertEquals(1_000, options.getMaxEventsPerStream());
    assertEquals(256, options.getMaxStreamsPerSession());
    assertEquals(0, options.getWaitReplicas());
    assertEquals(1_000, options.getWaitTimeoutMs());
    RedisOptions client = new RedisOptions();
    assertEquals(true, options.getMaxPoolSize() > client.getMaxPoolSize());
    assertEquals(true, options.getMaxPoolWaiting() > client.getMaxPoolWaiting());
  }

  @Test
  void copiesAndRoundTripsThroughJson() {
    RedisStoreOptions options = changed();
    JsonObject json = options.toJson();
    assertEquals(json, new RedisStoreOptions(json).toJson());
    assertEquals(json, new RedisStoreOptions(options).toJson());
    assertEquals(new RedisStoreOptions().toJson(), new RedisStoreOptions(new JsonObject()).toJson());
  }

  @Test
  void theCopyIsIndependent() {
    RedisStoreOptions options = changed();
    RedisStoreOptions copy = new RedisStoreOptions(options);
    copy.getConnectionStrings().add("redis://elsewhere:1");
    copy.setKeyPrefix("other:");
    assertEquals(2, options.getConnectionStrings().size());
    assertEquals("app:", options.getKeyPrefix());
  }

  @Test
  void rejectsInvalidValues() {
    RedisStoreOptions options = new RedisStoreOptions();
    assertThrows(IllegalArgumentException.class, () -> options.setKeyPrefix("a{b}:"));
    assertThrows(IllegalArgumentException.class, () -> options.setKeyPrefix(""));
    assertThrows(IllegalArgumentException.class, () -> options.setConnectionStrings(List.of()));
    assertThrows(IllegalArgumentException.class, () -> options.setMaxPoolSize(0));
    assertThrows(IllegalArgumentException.class, () -> options.setCommandTimeoutMs(0));
    assertThrows(IllegalArgumentException.class, () -> options.setWaitReplicas(-1));
    assertThrows(IllegalArgumentException.class,
        () -> new RedisStoreOptions(new JsonObject().put("maxEventsPerStream", -5)));
  }

  @Test
  void makesClientOptionsThatWriteToTheMasterAndConnectWithinTheCommandTimeout() {
    RedisOptions client = changed().toRedisOptions();
    assertEquals(RedisClientType.SENTINEL, client.getType());
    assertEquals(List.of("redis://a:26379", "redis://b:26379"), client.getEndpoints());
    assertEquals("primary", client.getMasterName());
    assertEquals(RedisRole.MASTER, client.getRole());
    assertEquals(RedisReplicas.NEVER, client.getUseReplicas());
    assertEquals(RedisTopology.STATIC, client.getTopology());
    assertEquals(64, client.getMaxPoolSize());
    assertEquals(100, client.getMaxPoolWaiting());
    assertEquals(512, client.getMaxWaitingHandlers());
    assertEquals(750, client.getNetClientOptions().getConnectTimeout());
  }

  private static RedisStoreOptions changed() {
    return new RedisStoreOptions()
        .setType(RedisClientType.SENTINEL)
        .setConnectionStrings(List.of("redis://a:26379", "redis://b:26379"))
        .setMasterName("primary")
        .setTopology(RedisTopology.STATIC)
        .setMaxPoolSize(64)
        .setMaxPoolWaiting(100)
        .setMaxWaitingHandlers(512)
        .setKeyPrefix("app:")
        .setCommandTimeoutMs(750)
        .setReconnectDelayMs(100)
        .setPingIntervalMs(1000)
        .setEventTtlMs(60_000)
        .setMaxEventsPerStream(50)
        .setMaxStreamsPerSession(8)
        .setWaitReplicas(1)
        .setWaitTimeoutMs(250);
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<RedisStoreOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new RedisStoreOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new RedisStoreOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("keyPrefix", "a{b}:", (Consumer<RedisStoreOptions>) o -> o.setKeyPrefix("a{b}:")),
        Arguments.of("connectionStrings", new JsonArray(), (Consumer<RedisStoreOptions>) o -> o.setConnectionStrings(List.of())),
        Arguments.of("masterName", "", (Consumer<RedisStoreOptions>) o -> o.setMasterName("")),
        Arguments.of("maxPoolSize", 0, (Consumer<RedisStoreOptions>) o -> o.setMaxPoolSize(0)),
        Arguments.of("maxPoolWaiting", 0, (Consumer<RedisStoreOptions>) o -> o.setMaxPoolWaiting(0)),
        Arguments.of("maxWaitingHandlers", 0, (Consumer<RedisStoreOptions>) o -> o.setMaxWaitingHandlers(0)),
        Arguments.of("commandTimeoutMs", 0, (Consumer<RedisStoreOptions>) o -> o.setCommandTimeoutMs(0)),
        Arguments.of("reconnectDelayMs", 0, (Consumer<RedisStoreOptions>) o -> o.setReconnectDelayMs(0)),
        Arguments.of("pingIntervalMs", 0, (Consumer<RedisStoreOptions>) o -> o.setPingIntervalMs(0)),
        Arguments.of("eventTtlMs", 0, (Consumer<RedisStoreOptions>) o -> o.setEventTtlMs(0)),
        Arguments.of("maxEventsPerStream", -5, (Consumer<RedisStoreOptions>) o -> o.setMaxEventsPerStream(-5)),
        Arguments.of("maxStreamsPerSession", 0, (Consumer<RedisStoreOptions>) o -> o.setMaxStreamsPerSession(0)),
        Arguments.of("waitReplicas", -1, (Consumer<RedisStoreOptions>) o -> o.setWaitReplicas(-1)),
        Arguments.of("waitTimeoutMs", 0, (Consumer<RedisStoreOptions>) o -> o.setWaitTimeoutMs(0)));
  }
}
