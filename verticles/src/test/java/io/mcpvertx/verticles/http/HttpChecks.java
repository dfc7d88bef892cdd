package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.MessageChecker;
import io.mcpvertx.testing.http.HttpReply;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** Assertions shared by the HTTP transport tests. */
final class HttpChecks {

  private HttpChecks() {
  }

  /** The message is valid for {@code version}; {@code answeredMethod} names the request a response answers. */
  static void assertSchemaValid(String version, JsonObject message, String answeredMethod) {
    List<String> problems = MessageChecker.check(version, message, answeredMethod);
    assertTrue(problems.isEmpty(), () -> "schema violations in " + message.encode() + ": " + problems);
  }

  /** A transport rejection: the status, and a JSON-RPC error with no id in the body. */
  static JsonObject assertRejected(HttpReply reply, int status) {
    assertEquals(status, reply.status(), () -> "unexpected " + reply);
    assertEquals("application/json", reply.contentType(), reply::toString);
    JsonObject error = reply.json();
    assertNull(error.getValue("id"), reply::toString);
    assertTrue(error.containsKey("id"), "JSON-RPC requires \"id\": null when there is no id");
    assertSchemaValid("2025-11-25", error, null);
    return error.getJsonObject("error");
  }

  /** A 202 with no body. */
  static void assertAccepted(HttpReply reply) {
    assertEquals(202, reply.status(), reply::toString);
    assertEquals(0, reply.body().length(), reply::toString);
  }
}
