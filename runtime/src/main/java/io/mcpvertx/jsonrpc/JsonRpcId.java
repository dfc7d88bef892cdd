package io.mcpvertx.jsonrpc;

import java.util.Objects;

/**
 * A JSON-RPC request id: a string or an integer. MCP forbids {@code null} ids on requests, so there is no null
 * variant; an error response that cannot name its request carries no id at all (see {@link JsonRpcErrorResponse}).
 */
public sealed interface JsonRpcId permits JsonRpcId.Text, JsonRpcId.Number {

  static JsonRpcId of(String value) {
    return new Text(value);
  }

  static JsonRpcId of(long value) {
    return new Number(value);
  }

  /** The value as it goes on the wire: a {@link String} or a {@link Long}. */
  Object wireValue();

  /**
   * A compact, reversible string form, used where only strings fit (event-bus headers, map keys across a
   * cluster). Numbers and strings never collide: {@code n:7} and {@code s:7}.
   */
  String encode();

  static JsonRpcId decode(String encoded) {
    if (encoded.startsWith("n:")) {
      return new Number(Long.parseLong(encoded.substring(2)));
    }
    if (encoded.startsWith("s:")) {
      return new Text(encoded.substring(2));
    }
    throw new IllegalArgumentException("Not an encoded JSON-RPC id: " + encoded);
  }

  record Text(String value) implements JsonRpcId {
    public Text {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public Object wireValue() {
      return value;
    }

    @Override
    public String encode() {
      return "s:" + value;
    }

    @Override
    public String toString() {
      return '"' + value + '"';
    }
  }

  record Number(long value) implements JsonRpcId {
    @Override
    public Object wireValue() {
      return value;
    }

    @Override
    public String encode() {
      return "n:" + value;
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }
}
