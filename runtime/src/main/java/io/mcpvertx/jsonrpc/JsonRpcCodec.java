package io.mcpvertx.jsonrpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one JSON-RPC 2.0 codec: bytes to typed messages and back, on Jackson, with hard limits.
 *
 * <p>Decoding never throws for bad input. A frame that is not JSON becomes a -32700 error, a frame that is JSON
 * but not a JSON-RPC message becomes -32600 (with the id when one could be read), and limits (size, nesting) are
 * enforced before or while parsing, so a hostile frame costs at most {@code maxMessageBytes} of work.
 *
 * <p>Thread-safe and stateless after construction; share one instance.
 */
public final class JsonRpcCodec {

  /** Room for a typical answer, so the output buffer rarely grows. */
  private static final int INITIAL_FRAME_BYTES = 256;

  /** The envelope's members, as bits of what {@link #readEnvelope} has seen. */
  private static final int JSONRPC = 1;
  private static final int ID = 1 << 1;
  private static final int METHOD = 1 << 2;
  private static final int PARAMS = 1 << 3;
  private static final int RESULT = 1 << 4;
  private static final int ERROR = 1 << 5;

  private final JsonRpcCodecOptions options;
  private final JsonFactory factory;

  private JsonRpcCodec(JsonRpcCodecOptions options) {
    this.options = new JsonRpcCodecOptions(options);
    // A member given twice ({"method":"ping","method":"tools/call"}) is refused rather than read as the last one;
    // JsonTrees.read tells, more cheaply than the parser's STRICT_DUPLICATE_DETECTION would.
    this.factory = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(options.getMaxNestingDepth())
            .maxStringLength(options.getMaxMessageBytes())
            .maxNumberLength(64)
            .build())
        .build();
  }

  public static JsonRpcCodec create(JsonRpcCodecOptions options) {
    return new JsonRpcCodec(options);
  }

  public static JsonRpcCodec create() {
    return new JsonRpcCodec(new JsonRpcCodecOptions());
  }

  public JsonRpcCodecOptions options() {
    return options;
  }

  /** Decodes one frame: a single message or a batch. */
  public Decoded decode(Buffer frame) {
    if (frame.length() > options.getMaxMessageBytes()) {
      return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST,
          "Message of " + frame.length() + " bytes exceeds the limit of " + options.getMaxMessageBytes() + " bytes");
    }
    byte[] bytes = frame.getBytes();
    int illFormed = Utf8.firstIllFormed(bytes);
    if (illFormed >= 0) {
      return invalid(null, JsonRpcErrorCodes.PARSE_ERROR,
          "Parse error: invalid UTF-8 at byte " + illFormed + " (RFC 3629: no overlong or surrogate sequences)");
    }
    try (JsonParser parser = factory.createParser(bytes)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return invalid(null, JsonRpcErrorCodes.PARSE_ERROR, "Parse error: no JSON value in the message");
      }
      NameHints names = NameHints.begin();
      Decoded decoded = first == JsonToken.START_ARRAY ? readBatch(parser, names) : readMember(parser, first, names);
      JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        return invalid(null, JsonRpcErrorCodes.PARSE_ERROR, "Parse error: trailing " + trailing
            + " after the JSON value");
      }
      return decoded;
    } catch (StreamConstraintsException e) {
      return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST, "Message exceeds a parser limit: "
          + firstLine(e.getOriginalMessage()));
    } catch (JsonProcessingException e) {
      return invalid(null, JsonRpcErrorCodes.PARSE_ERROR, "Parse error: " + firstLine(e.getOriginalMessage()));
    } catch (IOException e) {
      return invalid(null, JsonRpcErrorCodes.PARSE_ERROR, "Parse error: " + firstLine(e.getMessage()));
    }
  }

  /**
   * A batch, each member classified as it is read. Its size is judged once all of it is read, so that a batch
   * whose JSON is broken further on is a parse error whatever its size, as it was when the whole array was read
   * first.
   */
  private Decoded readBatch(JsonParser parser, NameHints names) throws IOException {
    List<Decoded> members = new ArrayList<>();
    JsonToken token;
    while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
      members.add(readMember(parser, token, names));
    }
    if (members.isEmpty()) {
      return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: empty batch");
    }
    if (members.size() > options.getMaxBatchSize()) {
      return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: batch of " + members.size() + " exceeds the limit of " + options.getMaxBatchSize());
    }
    return new Decoded.Batch(members);
  }

  /** One message: an object's envelope is read member by member; anything else is read whole and refused. */
  private Decoded readMember(JsonParser parser, JsonToken token, NameHints names) throws IOException {
    return token == JsonToken.START_OBJECT ? readEnvelope(parser, names)
        : classify(JsonTrees.read(parser, token, names));
  }

  /**
   * The members of a message's envelope straight from the parser into their places: no map and no lookups for the
   * envelope itself, which every message has. Its values ({@code params}, {@code result}...) are read as trees. A
   * member given twice is refused, as {@link JsonTrees#read} refuses it anywhere else.
   */
  private Decoded readEnvelope(JsonParser parser, NameHints names) throws IOException {
    Object jsonrpc = null;
    Object rawId = null;
    Object method = null;
    Object params = null;
    Object result = null;
    Object error = null;
    int seen = 0;
    Set<String> others = null;
    String name;
    while ((name = names.nextFieldName(parser)) != null) {
      Object value = JsonTrees.read(parser, parser.nextToken(), names);
      int member;
      switch (name) {
        case "jsonrpc" -> { member = JSONRPC; jsonrpc = value; }
        case "id" -> { member = ID; rawId = value; }
        case "method" -> { member = METHOD; method = value; }
        case "params" -> { member = PARAMS; params = value; }
        case "result" -> { member = RESULT; result = value; }
        case "error" -> { member = ERROR; error = value; }
        default -> {
          member = 0;
          if (others == null) {
            others = new HashSet<>();
          }
          if (!others.add(name)) {
            throw new JsonParseException(parser, "Duplicate field '" + name + "'");
          }
        }
      }
      if ((seen & member) != 0) {
        throw new JsonParseException(parser, "Duplicate field '" + name + "'");
      }
      seen |= member;
    }
    return classify((seen & ID) != 0, rawId, jsonrpc, method, params, (seen & RESULT) != 0, result,
        (seen & ERROR) != 0, error);
  }

  /** Classifies one already-parsed JSON value, for transports that parse the envelope themselves. */
  public Decoded classify(Object value) {
    if (value instanceof JsonObject json) {
      return classifyObject(json);
    }
    if (!(value instanceof Map<?, ?> map)) {
      return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
    }
    @SuppressWarnings("unchecked")
    JsonObject json = new JsonObject((Map<String, Object>) map);
    return classifyObject(json);
  }

  private Decoded classifyObject(JsonObject json) {
    return classify(json.containsKey("id"), json.getValue("id"), json.getValue("jsonrpc"), json.getValue("method"),
        json.getValue("params"), json.containsKey("result"), json.getValue("result"), json.containsKey("error"),
        json.getValue("error"));
  }

  /** A message from its envelope's members; {@code has*} tell a member given as null from one left out. */
  private Decoded classify(boolean hasId, Object rawId, Object jsonrpc, Object method, Object params,
      boolean hasResult, Object result, boolean hasError, Object error) {
    JsonRpcId id = readId(rawId);
    if (!"2.0".equals(jsonrpc)) {
      return invalid(id, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
    }
    if (method != null) {
      if (!(method instanceof String name) || name.isEmpty()) {
        return invalid(id, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: \"method\" must be a non-empty string");
      }
      if (params != null && !(params instanceof JsonObject)) {
        return invalid(id, hasId && id != null ? JsonRpcErrorCodes.INVALID_PARAMS : JsonRpcErrorCodes.INVALID_REQUEST,
            "Invalid params: \"params\" must be an object for method " + name);
      }
      if (!hasId) {
        return new Decoded.Message(new JsonRpcNotification(name, (JsonObject) params));
      }
      if (id == null) {
        return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST,
            "Invalid Request: request id must be a string or an integer, not " + describe(rawId));
      }
      return new Decoded.Message(new JsonRpcRequest(id, name, (JsonObject) params));
    }
    if (hasResult == hasError) {
      return invalid(id, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: a message needs \"method\", or exactly one of \"result\" and \"error\"");
    }
    if (hasResult) {
      if (id == null) {
        return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a response needs a string or integer id");
      }
      if (!(result instanceof JsonObject object)) {
        return invalid(id, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: \"result\" must be an object");
      }
      return new Decoded.Message(new JsonRpcResponse(id, object));
    }
    if (!(error instanceof JsonObject failure) || !isInt(failure.getValue("code"))
        || !(failure.getValue("message") instanceof String message)) {
      return invalid(id, JsonRpcErrorCodes.INVALID_REQUEST,
          "Invalid Request: \"error\" must be an object with an integer code and a string message");
    }
    if (rawId != null && id == null) {
      return invalid(null, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: bad id on an error response");
    }
    int code = ((Number) failure.getValue("code")).intValue();
    return new Decoded.Message(new JsonRpcErrorResponse(id, new JsonRpcError(code, message,
        failure.getValue("data"))));
  }

  /** Encodes one message as a compact UTF-8 JSON frame (no trailing newline). */
  public Buffer encode(JsonRpcMessage message) {
    JsonTrees.BufferOutput out = new JsonTrees.BufferOutput(INITIAL_FRAME_BYTES);
    try (JsonGenerator generator = factory.createGenerator(out)) {
      write(generator, message);
    } catch (IOException e) {
      // Only the output can fail, and it is a buffer in memory.
      throw new UncheckedIOException(e);
    }
    return out.buffer();
  }

  /** Encodes the responses to a batch as one JSON array. */
  public Buffer encodeBatch(List<? extends JsonRpcMessage> messages) {
    JsonTrees.BufferOutput out = new JsonTrees.BufferOutput(INITIAL_FRAME_BYTES * messages.size());
    try (JsonGenerator generator = factory.createGenerator(out)) {
      generator.writeStartArray();
      for (JsonRpcMessage message : messages) {
        write(generator, message);
      }
      generator.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.buffer();
  }

  /** The envelope straight to the generator, members in the order {@link JsonRpcMessage#toJson()} puts them. */
  private static void write(JsonGenerator generator, JsonRpcMessage message) throws IOException {
    generator.writeStartObject();
    generator.writeStringField("jsonrpc", "2.0");
    if (message instanceof JsonRpcResponse response) {
      writeId(generator, response.id());
      generator.writeFieldName("result");
      JsonTrees.write(generator, response.result());
    } else if (message instanceof JsonRpcErrorResponse failure) {
      writeId(generator, failure.id());
      JsonRpcError error = failure.error();
      generator.writeObjectFieldStart("error");
      generator.writeNumberField("code", error.code());
      generator.writeStringField("message", error.message());
      if (error.data() != null) {
        generator.writeFieldName("data");
        JsonTrees.write(generator, error.data());
      }
      generator.writeEndObject();
    } else if (message instanceof JsonRpcRequest request) {
      writeId(generator, request.id());
      generator.writeStringField("method", request.method());
      writeParams(generator, request.params());
    } else if (message instanceof JsonRpcNotification notification) {
      generator.writeStringField("method", notification.method());
      writeParams(generator, notification.params());
    } else {
      throw new IllegalArgumentException("Not a JSON-RPC message type: " + message.getClass().getName());
    }
    generator.writeEndObject();
  }

  private static void writeId(JsonGenerator generator, JsonRpcId id) throws IOException {
    generator.writeFieldName("id");
    if (id instanceof JsonRpcId.Number number) {
      generator.writeNumber(number.value()); // not boxed, as wireValue() would
    } else if (id instanceof JsonRpcId.Text text) {
      generator.writeString(text.value());
    } else {
      generator.writeNull(); // JsonRpcId is sealed: the only other case is no id
    }
  }

  private static void writeParams(JsonGenerator generator, JsonObject params) throws IOException {
    if (params != null) {
      generator.writeFieldName("params");
      JsonTrees.write(generator, params);
    }
  }

  private static JsonRpcId readId(Object raw) {
    if (raw instanceof String s) {
      return JsonRpcId.of(s);
    }
    if (raw instanceof Long || raw instanceof Integer || raw instanceof Short) {
      return JsonRpcId.of(((Number) raw).longValue());
    }
    return null;
  }

  /** Whether {@code raw} can be an error code: an integer that fits in 32 bits. */
  private static boolean isInt(Object raw) {
    return (raw instanceof Integer || raw instanceof Long || raw instanceof Short)
        && ((Number) raw).longValue() == ((Number) raw).intValue();
  }

  private static String describe(Object raw) {
    if (raw == null) {
      return "null";
    }
    if (raw instanceof BigInteger) {
      return "the integer " + raw + ", which is outside the 64-bit range";
    }
    if (raw instanceof Number) {
      return "the non-integer number " + raw;
    }
    if (raw instanceof JsonObject) {
      return "an object";
    }
    if (raw instanceof JsonArray) {
      return "an array";
    }
    return "a " + raw.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  private static Decoded invalid(JsonRpcId id, int code, String message) {
    return new Decoded.Invalid(new JsonRpcErrorResponse(id, new JsonRpcError(code, message)));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "malformed JSON";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
