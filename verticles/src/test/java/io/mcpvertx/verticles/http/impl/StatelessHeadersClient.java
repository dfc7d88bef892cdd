package io.mcpvertx.verticles.http.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.testing.SpecSchemas;
import io.mcpvertx.verticles.http.impl.HttpErrors.Refusal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Drives a POST of the 2026-07-28 generation through what the HTTP transport does before and after the engine,
 * without a socket: {@link StatelessHeaders#check} with the request's headers (a refusal travels with
 * {@link Refusal#BAD_REQUEST}), then {@link StatelessServer#serve}, whose error answers travel with
 * {@link HttpErrors#statusOf}. Headers are sent as a client following the spec would, unless a test changes them.
 * What comes back is checked against the 2026-07-28 schema; tests assert {@link #assertNoViolations}.
 */
final class StatelessHeadersClient {

  static final String VERSION = "2026-07-28";
  static final String META_VERSION = StatelessServer.META_PROTOCOL_VERSION;
  static final String META_CAPABILITIES = StatelessServer.META_CLIENT_CAPABILITIES;
  static final JsonObject ALL_CAPABILITIES = new JsonObject()
      .put("sampling", new JsonObject())
      .put("elicitation", new JsonObject())
      .put("roots", new JsonObject());

  private final McpServer server;
  private final StatelessServer stateless;
  private final Context context;
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private long nextId = 1;

  StatelessHeadersClient(Vertx vertx, McpServer server) {
    this.server = server;
    this.stateless = server.stateless();
    this.context = vertx.getOrCreateContext();
  }

  static JsonObject meta(JsonObject capabilities) {
    return new JsonObject()
        .put(META_VERSION, VERSION)
        .put(StatelessServer.META_CLIENT_INFO, new JsonObject().put("name", "headers-test").put("version", "1.0.0"))
        .put(META_CAPABILITIES, capabilities.copy());
  }

  Request request(String method, JsonObject params) {
    return new Request(method, params == null ? new JsonObject() : params.copy());
  }

  Request request(String method) {
    return request(method, null);
  }

  void assertNoViolations() {
    assertTrue(violations.isEmpty(), () -> "schema violations: " + violations);
  }

  /** What came back for one request: the response and the HTTP status it travels with. */
  record Exchange(JsonRpcId id, int status, JsonObject response) {

    JsonObject result() {
      assertTrue(response.getValue("result") instanceof JsonObject, () -> "expected a result, got "
          + response.encode());
      return response.getJsonObject("result");
    }

    JsonObject error() {
      assertTrue(response.getValue("error") instanceof JsonObject, () -> "expected an error, got "
          + response.encode());
      return response.getJsonObject("error");
    }

    /** Asserts an error with this code and HTTP status; returns the error. */
    JsonObject assertError(int code, int httpStatus) {
      JsonObject error = error();
      assertEquals(code, error.getInteger("code"), () -> "unexpected error " + error.encode());
      assertEquals(httpStatus, status, () -> "unexpected HTTP status for " + error.encode());
      assertEquals(id.wireValue(), response.getValue("id") instanceof Number n ? (Object) n.longValue()
          : response.getValue("id"), "the error echoes the request id");
      return error;
    }

    /** Asserts a complete result (resultType "complete"); returns it. */
    JsonObject complete() {
      JsonObject result = result();
      assertEquals("complete", result.getString("resultType"), result::encode);
      assertEquals(200, status);
      return result;
    }

    /** Asserts a task was created; returns it. */
    JsonObject task() {
      JsonObject result = result();
      assertEquals("task", result.getString("resultType"), result::encode);
      assertEquals(200, status);
      return result;
    }
  }

  /** One request to build and send. */
  final class Request {

    private final String method;
    private final JsonObject params;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Set<String> removed = new HashSet<>();
    private JsonRpcId id;

    private Request(String method, JsonObject params) {
      this.method = method;
      this.params = params;
      if (!params.containsKey("_meta")) {
        params.put("_meta", StatelessHeadersClient.meta(ALL_CAPABILITIES));
      }
    }

    /** Replaces {@code _meta} (null removes it). */
    Request meta(JsonObject meta) {
      if (meta == null) {
        params.remove("_meta");
      } else {
        params.put("_meta", meta);
      }
      return this;
    }

    Request capabilities(JsonObject capabilities) {
      params.getJsonObject("_meta").put(META_CAPABILITIES, capabilities);
      return this;
    }

    /** Sets a header (replacing the default of the same name, case-insensitively). */
    Request header(String name, String value) {
      headers.put(name.toLowerCase(Locale.ROOT), value);
      removed.remove(name.toLowerCase(Locale.ROOT));
      return this;
    }

    Request withoutHeader(String name) {
      headers.remove(name.toLowerCase(Locale.ROOT));
      removed.add(name.toLowerCase(Locale.ROOT));
      return this;
    }

    Request id(JsonRpcId id) {
      this.id = id;
      return this;
    }

    Future<Exchange> send() {
      Promise<Exchange> promise = Promise.promise();
      context.runOnContext(v -> {
        if (id == null) {
          id = JsonRpcId.of(nextId++);
        }
        JsonRpcRequest request = new JsonRpcRequest(id, method, params);
        JsonRpcError refused = StatelessHeaders.check(stateless, request, headerLookup());
        if (refused != null) {
          JsonObject response = received(new JsonRpcErrorResponse(request.id(), refused));
          promise.complete(new Exchange(request.id(), Refusal.BAD_REQUEST.status, response));
          return;
        }
        stateless.serve(request, null, message -> received(message)).response().onComplete(ar -> {
          if (ar.failed()) {
            promise.fail(ar.cause());
            return;
          }
          JsonRpcMessage answer = ar.result();
          int status = answer instanceof JsonRpcErrorResponse error ? HttpErrors.statusOf(error.error()) : 200;
          promise.complete(new Exchange(request.id(), status, received(answer)));
        });
      });
      return promise.future();
    }

    private Function<String, String> headerLookup() {
      Map<String, String> all = new LinkedHashMap<>();
      Object version = params.getValue("_meta") instanceof JsonObject m ? m.getValue(META_VERSION) : null;
      all.put("mcp-protocol-version", version instanceof String s ? s : VERSION);
      all.put("mcp-method", method);
      Object name = switch (method) {
        case "tools/call", "prompts/get" -> params.getValue("name");
        case "resources/read" -> params.getValue("uri");
        case "tasks/get", "tasks/update", "tasks/cancel" -> params.getValue("taskId");
        default -> null;
      };
      if (name instanceof String s) {
        all.put("mcp-name", s);
      }
      removed.forEach(all::remove);
      all.putAll(headers);
      return header -> all.get(header.toLowerCase(Locale.ROOT));
    }
  }

  /** Encodes what the server emitted, as the transport would, and checks errors and results' envelopes. */
  private JsonObject received(JsonRpcMessage message) {
    JsonObject json = new JsonObject(server.codec().encode(message));
    String type = json.containsKey("method") ? null
        : json.containsKey("error") ? "JSONRPCErrorResponse" : "JSONRPCResultResponse";
    if (type != null) {
      for (String problem : SpecSchemas.violations(VERSION, type, json)) {
        violations.add(type + ": " + problem + " in " + json.encode());
      }
    }
    return json;
  }
}
