package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StatelessOptionsTest {

  private static final String KEY = "0123456789abcdef0123456789abcdef";

  @Test
  void hasItsDefaults() {
    StatelessOptions options = new StatelessOptions();
    assertTrue(options.getRequestStateKeys().isEmpty());
    assertEquals(StatelessOptions.DEFAULT_REQUEST_STATE_TTL_MS, options.getRequestStateTtlMs());
    assertEquals(StatelessOptions.DEFAULT_LIST_TTL_MS, options.getListTtlMs());
    assertEquals(StatelessOptions.DEFAULT_CACHE_SCOPE, options.getListCacheScope());
    assertEquals(StatelessOptions.DEFAULT_READ_TTL_MS, options.getReadTtlMs());
    assertEquals(StatelessOptions.DEFAULT_CACHE_SCOPE, options.getReadCacheScope());
  }

  @Test
  void theCopyHasEveryValueAndIsIndependent() {
    StatelessOptions original = changed();
    StatelessOptions copy = new StatelessOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    original.getRequestStateKeys().clear();
    original.setReadCacheScope("private");
    assertEquals(List.of(KEY), copy.getRequestStateKeys());
    assertEquals("public", copy.getReadCacheScope());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForAbsentKeys() {
    JsonObject json = changed().toJson();
    assertEquals(json, new StatelessOptions(json).toJson());
    assertEquals(new StatelessOptions().toJson(), new StatelessOptions(new JsonObject()).toJson());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<StatelessOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new StatelessOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new StatelessOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("requestStateKeys", new JsonArray().add("short"),
            (Consumer<StatelessOptions>) o -> o.setRequestStateKeys(List.of("short"))),
        Arguments.of("requestStateTtlMs", 0, (Consumer<StatelessOptions>) o -> o.setRequestStateTtlMs(0)),
        Arguments.of("listTtlMs", -1, (Consumer<StatelessOptions>) o -> o.setListTtlMs(-1)),
        Arguments.of("listCacheScope", "shared", (Consumer<StatelessOptions>) o -> o.setListCacheScope("shared")),
        Arguments.of("readTtlMs", -1, (Consumer<StatelessOptions>) o -> o.setReadTtlMs(-1)),
        Arguments.of("readCacheScope", "all", (Consumer<StatelessOptions>) o -> o.setReadCacheScope("all")));
  }

  private static StatelessOptions changed() {
    return new StatelessOptions().setRequestStateKeys(List.of(KEY)).setRequestStateTtlMs(5_000).setListTtlMs(10)
        .setListCacheScope("public").setReadTtlMs(20).setReadCacheScope("public");
  }
}
