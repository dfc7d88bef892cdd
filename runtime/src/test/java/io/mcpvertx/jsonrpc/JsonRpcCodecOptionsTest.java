package io.mcpvertx.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

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
}
