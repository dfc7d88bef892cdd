package io.mcpvertx.examples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.MessageChecker;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the packaged hello example as a subprocess, as an MCP host would: JSON-RPC lines on its stdin, answers on
 * its stdout, and end of input ends the process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StdioEndToEndIT {

  private static final String VERSION = "2025-11-25";

  @Test
  void servesAWholeSessionAndExitsCleanlyAtEndOfInput() throws Exception {
    Process process = ExamplesJar.start("hello");
    try (OutputStream stdin = process.getOutputStream();
         BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(),
             StandardCharsets.UTF_8))) {
      JsonObject init = exchange(stdin, stdout, 1, "initialize", new JsonObject()
          .put("protocolVersion", VERSION)
          .put("capabilities", new JsonObject())
          .put("clientInfo", new JsonObject().put("name", "e2e").put("version", "1")));
      assertEquals(VERSION, init.getString("protocolVersion"));
      assertEquals("hello", init.getJsonObject("serverInfo").getString("name"));
      write(stdin, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"));

      JsonObject tools = exchange(stdin, stdout, 2, "tools/list", null);
      assertEquals("greet", tools.getJsonArray("tools").getJsonObject(0).getString("name"));

      JsonObject call = exchange(stdin, stdout, 3, "tools/call",
          new JsonObject().put("name", "greet").put("arguments", new JsonObject().put("name", "Ada")));
      assertEquals("Hello, Ada!", call.getJsonArray("content").getJsonObject(0).getString("text"));

      JsonObject read = exchange(stdin, stdout, 4, "resources/read", new JsonObject().put("uri", "hello://greetings/Bob"));
      assertEquals("Hello, Bob!", read.getJsonArray("contents").getJsonObject(0).getString("text"));

      JsonObject prompt = exchange(stdin, stdout, 5, "prompts/get",
          new JsonObject().put("name", "introduce").put("arguments", new JsonObject().put("name", "Eve")));
      assertTrue(prompt.getJsonArray("messages").getJsonObject(0).getJsonObject("content").getString("text")
          .contains("Eve"));

      stdin.close();
      assertNull(stdout.readLine(), "nothing but answers may appear on stdout");
    }
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server did not exit after end of input");
    assertEquals(0, process.exitValue());
  }

  @Test
  void answersGarbageWithAParseErrorAndKeepsServing() throws Exception {
    Process process = ExamplesJar.start("hello");
    try (OutputStream stdin = process.getOutputStream();
         BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(),
             StandardCharsets.UTF_8))) {
      stdin.write("this is not json\n".getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      JsonObject error = new JsonObject(stdout.readLine());
      assertNull(error.getValue("id"));
      assertEquals(-32700, error.getJsonObject("error").getInteger("code"));
      JsonObject pong = exchange(stdin, stdout, 7, "ping", null);
      assertEquals(new JsonObject(), pong);
    } finally {
      process.destroy();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static JsonObject exchange(OutputStream stdin, BufferedReader stdout, int id, String method,
      JsonObject params) throws Exception {
    JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    if (params != null) {
      request.put("params", params);
    }
    write(stdin, request);
    String line = stdout.readLine();
    assertTrue(line != null, "no answer to " + method);
    JsonObject response = new JsonObject(line);
    assertEquals(id, response.getInteger("id"), "answer to " + method + ": " + line);
    List<String> problems = MessageChecker.check(VERSION, response, method);
    assertTrue(problems.isEmpty(), problems.toString());
    assertTrue(response.containsKey("result"), line);
    return response.getJsonObject("result");
  }

  private static void write(OutputStream stdin, JsonObject message) throws Exception {
    stdin.write((message.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }
}
