package io.mcpvertx.verticles.http.auth.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScopePolicyTest {

  private final ScopePolicy policy = new ScopePolicy(new McpAuthOptions().setRequiredScopes(List.of("base"))
      .addMethodScopes("tools/call", List.of("tools")).addMethodScopes("tasks/cancel", List.of("tasks"))
      .addToolScopes("admin", List.of("admin")));
  private final JsonRpcCodec codec = JsonRpcCodec.create();

  private Set<String> required(String json) {
    Decoded decoded = codec.decode(Buffer.buffer(json));
    return policy.required(decoded);
  }

  @Test
  void addsTheScopesOfTheMethodAndOfTheToolCalled() {
    assertEquals(List.of("base"), List.copyOf(required("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")));
    assertEquals(List.of("base", "tools"), List.copyOf(required(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}")));
    assertEquals(List.of("base", "tools", "admin"), List.copyOf(required(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"admin\"}}")));
  }

  @Test
  void aBatchNeedsWhatAllItsMembersNeed() {
    assertEquals(List.of("base", "tools", "admin", "tasks"), List.copyOf(required("[{\"jsonrpc\":\"2.0\",\"id\":1,"
        + "\"method\":\"tools/call\",\"params\":{\"name\":\"admin\"}},{\"jsonrpc\":\"2.0\",\"id\":2,"
        + "\"method\":\"tasks/cancel\",\"params\":{\"taskId\":\"t\"}}]")));
  }

  @Test
  void stepUpKeepsTheScopesOfOursAlreadyGranted() {
    Principal principal = new Principal("iss", "sub", Set.of("base", "tasks", "unrelated"));
    Set<String> required = Set.of("base", "tools");
    assertEquals(List.of("tools"), ScopePolicy.missing(principal, new java.util.LinkedHashSet<>(List.of("base",
        "tools"))));
    assertEquals(Set.of("base", "tools", "tasks"), policy.stepUp(principal, required));
    assertEquals(List.of("base"), policy.supported());
  }
}
