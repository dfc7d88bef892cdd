package io.mcpvertx.verticles.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StdioServerOptionsTest {

  @Test
  void defaultsDrainForFiveSecondsAndRedirectSystemOut() {
    StdioServerOptions options = new StdioServerOptions();
    assertEquals(StdioServerOptions.DEFAULT_DRAIN_TIMEOUT_MS, options.getDrainTimeoutMs());
    assertTrue(options.isRedirectSystemOut());
    assertEquals(StdioServerOptions.DEFAULT_MAX_OUTPUT_QUEUE_BYTES, options.getMaxOutputQueueBytes());
  }

  @Test
  void theCopyIsIndependentOfTheOriginal() {
    StdioServerOptions original = new StdioServerOptions().setDrainTimeoutMs(7).setRedirectSystemOut(false);
    StdioServerOptions copy = new StdioServerOptions(original);
    original.setDrainTimeoutMs(9).setRedirectSystemOut(true);
    assertEquals(7, copy.getDrainTimeoutMs());
    assertFalse(copy.isRedirectSystemOut());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForMissingMembers() {
    StdioServerOptions options = new StdioServerOptions().setDrainTimeoutMs(123).setRedirectSystemOut(false)
        .setMaxOutputQueueBytes(4096);
    assertEquals(options.toJson(), new StdioServerOptions(options.toJson()).toJson());
    assertEquals(new StdioServerOptions().toJson(), new StdioServerOptions(new JsonObject()).toJson());
  }

  @Test
  void rejectsANegativeDrainTimeout() {
    assertThrows(IllegalArgumentException.class, () -> new StdioServerOptions().setDrainTimeoutMs(-1));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<StdioServerOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new StdioServerOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new StdioServerOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("drainTimeoutMs", -1, (Consumer<StdioServerOptions>) o -> o.setDrainTimeoutMs(-1)),
        Arguments.of("maxOutputQueueBytes", 0, (Consumer<StdioServerOptions>) o -> o.setMaxOutputQueueBytes(0)));
  }
}
