package io.mcpvertx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TaskOptionsTest {

  @Test
  void hasItsDefaults() {
    TaskOptions options = new TaskOptions();
    assertEquals(TaskOptions.DEFAULT_TTL_MS, options.getDefaultTtlMs());
    assertEquals(TaskOptions.DEFAULT_MAX_TTL_MS, options.getMaxTtlMs());
    assertEquals(TaskOptions.DEFAULT_POLL_INTERVAL_MS, options.getPollIntervalMs());
    assertEquals(TaskOptions.DEFAULT_MAX_ACTIVE_PER_OWNER, options.getMaxActivePerOwner());
    assertEquals(TaskOptions.DEFAULT_MAX_LOCAL_EXECUTIONS, options.getMaxLocalExecutions());
    assertEquals(TaskOptions.DEFAULT_MAX_RESULT_WAITERS, options.getMaxResultWaiters());
  }

  @Test
  void theCopyHasEveryValueAndIsIndependent() {
    TaskOptions original = changed();
    TaskOptions copy = new TaskOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    original.setPollIntervalMs(1);
    assertEquals(250, copy.getPollIntervalMs());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForAbsentKeys() {
    JsonObject json = changed().toJson();
    assertEquals(json, new TaskOptions(json).toJson());
    assertEquals(new TaskOptions().toJson(), new TaskOptions(new JsonObject()).toJson());
    assertEquals(7, new TaskOptions(new JsonObject().put("maxActivePerOwner", 7)).getMaxActivePerOwner());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<TaskOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new TaskOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new TaskOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("defaultTtlMs", 0, (Consumer<TaskOptions>) o -> o.setDefaultTtlMs(0)),
        Arguments.of("maxTtlMs", -1, (Consumer<TaskOptions>) o -> o.setMaxTtlMs(-1)),
        Arguments.of("pollIntervalMs", 0, (Consumer<TaskOptions>) o -> o.setPollIntervalMs(0)),
        Arguments.of("maxActivePerOwner", 0, (Consumer<TaskOptions>) o -> o.setMaxActivePerOwner(0)),
        Arguments.of("maxLocalExecutions", 0, (Consumer<TaskOptions>) o -> o.setMaxLocalExecutions(0)),
        Arguments.of("maxResultWaiters", -3, (Consumer<TaskOptions>) o -> o.setMaxResultWaiters(-3)));
  }

  private static TaskOptions changed() {
    return new TaskOptions().setDefaultTtlMs(1_000).setMaxTtlMs(2_000).setPollIntervalMs(250)
        .setMaxActivePerOwner(3).setMaxLocalExecutions(4).setMaxResultWaiters(5);
  }
}
