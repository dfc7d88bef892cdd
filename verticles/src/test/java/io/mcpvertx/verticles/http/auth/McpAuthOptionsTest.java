package io.mcpvertx.verticles.http.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.verticles.http.McpHttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class McpAuthOptionsTest {

  private static McpAuthOptions full() {
    return new McpAuthOptions().setMode(AuthMode.INTROSPECTION).setIssuer("https://as.example.test")
        .setDiscoveryUrl("https://as.example.test/.well-known/openid-configuration")
        .setJwksUrl("https://as.example.test/jwks").setIntrospectionUrl("https://as.example.test/introspect")
        .setClientId("rs").setClientSecret("secret").setResource("https://mcp.example.test/mcp")
        .setResourceName("Example").setClockSkewSeconds(10).setRequiredScopes(List.of("a"))
        .addMethodScopes("tools/call", List.of("b")).addToolScopes("admin", List.of("c"))
        .setScopesSupported(List.of("a", "b")).setServeAuthorizationServerMetadata(true)
        .setJwksRefreshMinIntervalMs(5).setJwksMaxAgeSeconds(7).setHttpTimeoutMs(9)
        .setAlgorithms(List.of("ES256"));
  }

  @Test
  void isOffByDefaultWithBoundedSafeDefaults() {
    McpAuthOptions options = new McpAuthOptions();
    assertEquals(AuthMode.OFF, options.getMode());
    assertFalse(options.isEnabled());
    assertEquals(McpAuthOptions.DEFAULT_CLOCK_SKEW_SECONDS, options.getClockSkewSeconds());
    assertEquals(McpAuthOptions.DEFAULT_ALGORITHMS, options.getAlgorithms());
    assertFalse(options.isServeAuthorizationServerMetadata());
    assertFalse(new McpHttpServerOptions().getAuth().isEnabled());
    options.validate();
  }

  @Test
  void theCopyIsIndependentOfTheOriginal() {
    McpAuthOptions original = full();
    McpAuthOptions copy = new McpAuthOptions(original);
    original.setIssuer("https://other.example.test").addToolScopes("x", List.of("y"));
    assertEquals("https://as.example.test", copy.getIssuer());
    assertFalse(copy.getToolScopes().containsKey("x"));
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForMissingMembers() {
    McpAuthOptions options = full();
    assertEquals(options.toJson(), new McpAuthOptions(options.toJson()).toJson());
    assertEquals(new McpAuthOptions().toJson(), new McpAuthOptions(new JsonObject()).toJson());
    McpHttpServerOptions http = new McpHttpServerOptions().setAuth(options);
    assertEquals(options.toJson(), new McpHttpServerOptions(http.toJson()).getAuth().toJson());
  }

  @Test
  void refusesIncompleteOrUnsafeConfigurations() {
    McpAuthOptions jwt = new McpAuthOptions().setMode(AuthMode.JWT).setIssuer("https://as.example.test")
        .setResource("https://mcp.example.test/mcp");
    jwt.validate();
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt).setIssuer(null).validate());
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt).setResource(null).validate());
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt).setResource("mcp.example.test")
        .validate());
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt)
        .setResource("https://mcp.example.test/mcp#x").validate());
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt).setIssuer("http://as.example.test")
        .validate());
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt)
        .setIssuer("http://127.attacker.example/as").validate());
    new McpAuthOptions(jwt).setIssuer("http://127.0.0.1:8080/as").validate();
    new McpAuthOptions(jwt).setIssuer("http://localhost:8080/as").validate();
    assertThrows(IllegalStateException.class, () -> new McpAuthOptions(jwt).setMode(AuthMode.INTROSPECTION)
        .validate());
    assertThrows(IllegalArgumentException.class, () -> jwt.setAlgorithms(List.of("none")));
    assertThrows(IllegalArgumentException.class, () -> jwt.setAlgorithms(List.of("HS256")));
    assertThrows(IllegalArgumentException.class, () -> jwt.setClockSkewSeconds(301));
    assertTrue(jwt.isEnabled());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<McpAuthOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new McpAuthOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new McpAuthOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("clockSkewSeconds", 301, (Consumer<McpAuthOptions>) o -> o.setClockSkewSeconds(301)),
        Arguments.of("algorithms", new JsonArray().add("HS256"), (Consumer<McpAuthOptions>) o -> o.setAlgorithms(List.of("HS256"))),
        Arguments.of("jwksRefreshMinIntervalMs", -1, (Consumer<McpAuthOptions>) o -> o.setJwksRefreshMinIntervalMs(-1)),
        Arguments.of("httpTimeoutMs", 0, (Consumer<McpAuthOptions>) o -> o.setHttpTimeoutMs(0)));
  }
}
