package io.mcpvertx.jsonrpc;

import io.vertx.core.json.JsonObject;

/** Limits the {@link JsonRpcCodec} enforces on every inbound message. */
public class JsonRpcCodecOptions {

  public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
  public static final int DEFAULT_MAX_NESTING_DEPTH = 64;
  public static final int DEFAULT_MAX_BATCH_SIZE = 100;

  private int maxMessageBytes;
  private int maxNestingDepth;
  private int maxBatchSize;

  public JsonRpcCodecOptions() {
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    maxNestingDepth = DEFAULT_MAX_NESTING_DEPTH;
    maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
  }

  public JsonRpcCodecOptions(JsonRpcCodecOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public JsonRpcCodecOptions(JsonObject json) {
    this();
    setMaxMessageBytes(json.getInteger("maxMessageBytes", maxMessageBytes));
    setMaxNestingDepth(json.getInteger("maxNestingDepth", maxNestingDepth));
    setMaxBatchSize(json.getInteger("maxBatchSize", maxBatchSize));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("maxMessageBytes", maxMessageBytes)
        .put("maxNestingDepth", maxNestingDepth)
        .put("maxBatchSize", maxBatchSize);
  }

  public int getMaxMessageBytes() {
    return maxMessageBytes;
  }

  /** Messages larger than this many bytes are rejected before they are parsed. */
  public JsonRpcCodecOptions setMaxMessageBytes(int maxMessageBytes) {
    if (maxMessageBytes < 64) {
      throw new IllegalArgumentException("maxMessageBytes must be at least 64");
    }
    this.maxMessageBytes = maxMessageBytes;
    return this;
  }

  public int getMaxNestingDepth() {
    return maxNestingDepth;
  }

  /** Objects and arrays nested deeper than this are rejected while parsing. */
  public JsonRpcCodecOptions setMaxNestingDepth(int maxNestingDepth) {
    if (maxNestingDepth < 4) {
      throw new IllegalArgumentException("maxNestingDepth must be at least 4");
    }
    this.maxNestingDepth = maxNestingDepth;
    return this;
  }

  public int getMaxBatchSize() {
    return maxBatchSize;
  }

  /** Batches (2025-03-26 only) with more members than this are rejected whole. */
  public JsonRpcCodecOptions setMaxBatchSize(int maxBatchSize) {
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("maxBatchSize must be positive");
    }
    this.maxBatchSize = maxBatchSize;
    return this;
  }
}
