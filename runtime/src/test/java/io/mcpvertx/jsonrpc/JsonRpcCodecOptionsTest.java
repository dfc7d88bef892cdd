package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonRpcCodecOptionsTest {

  @Test
  void hasDocumentedDefaults() {
    JsonRpcCodecOptions options = new JsonRpcCodecOptions();
    assertEquals(JsonRpcCodecOptions.DEFAULT_MAX_MESSAGE_BYTES, options.getMaxMessageBytes());
    assertEquals(JsonRpcCodecOptions.DEFAULT_MAX_NESTING_DEPTH, options.getMaxNestingDepth());
    assertEquals(JsonRpcCodecOptions.DEFAULT_MAX_BATCH_SIZE, options.getMaxBatchSize());
    assertEquals(4 * 1024 * 1024, JsonRpcCodecOptions.DEFAULT_MAX_MESSAGE_BYTES);
  }

  @Test
  void copyConstructorCopiesEveryFieldAndIsIndependent() {
    JsonRpcCodecOptions original = new JsonRpcCodecOptions()
        .setMaxMessageBytes(1000).setMaxNestingDepth(10).setMaxBatchSize(5);
    JsonRpcCodecOptions copy = new JsonRpcCodecOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    original.setMaxBatchSize(6);
    assertEquals(5, copy.getMaxBatchSize());
  }

  @Test
  void roundTripsThroughJson() {
    JsonRpcCodecOptions options = new JsonRpcCodecOptions()
        .setMaxMessageBytes(2048).setMaxNestingDepth(12).setMaxBatchSize(7);
    JsonObject json = options.toJson();
    assertEquals(new JsonObject().put("maxMessageBytes", 2048).put("maxNestingDepth", 12).put("maxBatchSize", 7), json);
    assertEquals(json, new JsonRpcCodecOptions(json).toJson());
  }

  @Test
  void takesDefaultsForMembersMissingFromJson() {
    JsonRpcCodecOptions options = new JsonRpcCodecOptions(new JsonObject().put("maxBatchSize", 3));
    assertEquals(3, options.getMaxBatchSize());
    assertEquals(JsonRpcCodecOptions.DEFAULT_MAX_MESSAGE_BYTES, options.getMaxMessageBytes());
    assertEquals(JsonRpcCodecOptions.DEFAULT_MAX_NESTING_DEPTH, options.getMaxNestingDepth());
  }

  @Test
  void rejectsOutOfRangeValuesFromSetters() {
    JsonRpcCodecOptions options = new JsonRpcCodecOptions();
    assertThrows(IllegalArgumentException.class, () -> options.setMaxMessageBytes(63));
    assertThrows(IllegalArgumentException.class, () -> options.setMaxNestingDepth(3));
    assertThrows(IllegalArgumentException.class, () -> options.setMaxBatchSize(0));
  }

  @Test
  void rejectsOutOfRangeValuesFromJson() {
    assertThrows(IllegalArgumentException.class,
        () -> new JsonRpcCodecOptions(new JsonObject().put("maxMessageBytes", 0)));
    assertThrows(IllegalArgumentException.class,
        () -> new JsonRpcCodecOptions(new JsonObject().put("maxNestingDepth", 1)));
    assertThrows(IllegalArgumentException.class,
        () -> new JsonRpcCodecOptions(new JsonObject().put("maxBatchSize", -1)));
  }

  @Test
  void codecKeepsItsOwnCopyOfTheOptions() {
    JsonRpcCodecOptions options = new JsonRpcCodecOptions().setMaxBatchSize(4);
    JsonRpcCodec codec = JsonRpcCodec.create(options);
    options.setMaxBatchSize(9);
    assertEquals(4, codec.options().getMaxBatchSize());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<JsonRpcCodecOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new JsonRpcCodecOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new JsonRpcCodecOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("maxMessageBytes", 63, (Consumer<JsonRpcCodecOptions>) o -> o.setMaxMessageBytes(63)),
        Arguments.of("maxNestingDepth", 3, (Consumer<JsonRpcCodecOptions>) o -> o.setMaxNestingDepth(3)),
        Arguments.of("maxBatchSize", 0, (Consumer<JsonRpcCodecOptions>) o -> o.setMaxBatchSize(0)));
  }
}
