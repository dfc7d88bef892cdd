package io.mcpvertx.jsonrpc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * JSON text to Vert.x JSON values and back, on Jackson's streaming parser and generator: no data-binding layer and
 * no intermediate tree, so a message costs one pass each way.
 *
 * <p>Objects are read as {@link JsonObject} holding {@link JsonObject}s and {@link JsonArray}s (not raw maps a
 * getter would wrap again on every access); integers as the smallest of {@code Integer}, {@code Long},
 * {@code BigInteger} that holds them, other numbers as {@code Double}, the types data binding gave. Values are
 * written by Vert.x's own encoder, so a message reads the same as {@link JsonObject#encode()} would write it.
 */
final class JsonTrees {

  private JsonTrees() {
  }

  /**
   * Reads the one value the parser holds; the caller has checked that nothing follows it. Member names are read
   * through {@code names}, the names the previous message had in the same places.
   *
   * <p>A member given twice fails the read: two parsers in a chain (a proxy, then us) could otherwise see two
   * different messages. The map that collects the members tells it (it does not grow), which costs nothing, where
   * the parser's own duplicate detection keeps a set of names beside every object of three members or more.
   */
  static Object read(JsonParser parser, JsonToken token, NameHints names) throws IOException {
    switch (token) {
      case START_OBJECT: {
        Map<String, Object> members = new LinkedHashMap<>();
        String name;
        while ((name = names.nextFieldName(parser)) != null) {
          int before = members.size();
          members.put(name, read(parser, parser.nextToken(), names));
          if (members.size() == before) {
            throw new JsonParseException(parser, "Duplicate field '" + name + "'");
          }
        }
        return new JsonObject(members);
      }
      case START_ARRAY: {
        List<Object> items = new ArrayList<>();
        JsonToken next;
        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
          items.add(read(parser, next, names));
        }
        return new JsonArray(items);
      }
      case VALUE_STRING:
        return parser.getText();
      case VALUE_NUMBER_INT:
        return parser.getNumberValue();
      case VALUE_NUMBER_FLOAT: {
        // 1e400 would read as Infinity, which no JSON text can hold: answered as a limit, like an overlong number.
        double value = parser.getDoubleValue();
        if (Double.isInfinite(value)) {
          throw new StreamConstraintsException("Number " + parser.getText() + " is beyond the range of a double");
        }
        return value;
      }
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IOException("unexpected token " + token);
    }
  }

  /**
   * Writes a Vert.x JSON value (or anything {@link JsonObject#encode()} accepts), with the same text Vert.x's
   * encoder gives. Objects, arrays, strings, integers, booleans and null are written here; anything else (other
   * numbers, {@code Instant}, {@code byte[]}, {@code Buffer}, enums...) by Vert.x.
   *
   * <p>Why not Vert.x's encoder for all of it: it walks an object's {@code entrySet()}, which for a read-only map
   * (a shared {@code _meta} member, say) makes a wrapper per member; {@code forEach} reaches the members
   * themselves.
   */
  static void write(JsonGenerator generator, Object value) throws IOException {
    if (value instanceof String text) {
      generator.writeString(text);
    } else if (value instanceof JsonObject object) {
      writeObject(generator, object.getMap());
    } else if (value instanceof JsonArray array) {
      writeArray(generator, array.getList());
    } else if (value instanceof Map<?, ?> map) {
      writeObject(generator, map);
    } else if (value instanceof List<?> list) {
      writeArray(generator, list);
    } else if (value instanceof Integer number) {
      generator.writeNumber(number);
    } else if (value instanceof Long number) {
      generator.writeNumber(number);
    } else if (value instanceof Boolean bool) {
      generator.writeBoolean(bool);
    } else if (value == null) {
      generator.writeNull();
    } else {
      JacksonCodec.encodeJson(value, generator);
    }
  }

  private static void writeObject(JsonGenerator generator, Map<?, ?> members) throws IOException {
    generator.writeStartObject();
    try {
      members.forEach((name, member) -> {
        try {
          generator.writeFieldName((String) name);
          write(generator, member);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    generator.writeEndObject();
  }

  private static void writeArray(JsonGenerator generator, List<?> items) throws IOException {
    generator.writeStartArray();
    if (items instanceof RandomAccess) {
      for (int i = 0, n = items.size(); i < n; i++) {
        write(generator, items.get(i));
      }
    } else {
      for (Object item : items) {
        write(generator, item);
      }
    }
    generator.writeEndArray();
  }

  /** An output stream appending to a buffer; the generator writes to it in its own blocks. */
  static final class BufferOutput extends OutputStream {

    private final Buffer buffer;

    BufferOutput(int initialSize) {
      this.buffer = Buffer.buffer(initialSize);
    }

    Buffer buffer() {
      return buffer;
    }

    @Override
    public void write(int b) {
      buffer.appendByte((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      buffer.appendBytes(bytes, offset, length);
    }
  }
}
